/**
 * The markers around what `mem context` injects into an agent session. The pack writes them
 * (pack/render.ts) and the trust boundary cuts what lies between them out of a transcript
 * (extract/trust.ts), so memfold never learns back the memory it injected. Nothing inside a pack may
 * be a marker: an entry quoting `</memfold-context>` once closed the pack early.
 */
export const CONTEXT_OPEN = '<memfold-context>';
export const CONTEXT_CLOSE = '</memfold-context>';

/**
 * Text to put inside a pack with any marker in it made inert (`<` written `&lt;`, which Markdown
 * still shows as `<`): an entry that quotes `</memfold-context>` must not close the pack early.
 */
export function neutraliseMarkers(text: string): string {
  return text.replace(/<(?=\/?memfold-context)/gi, '&lt;');
}
