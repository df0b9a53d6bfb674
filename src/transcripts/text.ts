/**
 * Small text helpers shared by the format readers. Tool inputs and outputs are truncated because a
 * turn is context for extraction, not an archive: the raw transcript stays where it is.
 */

export const MAX_TOOL_TEXT = 2000;

export type Obj = Record<string, unknown>;

export function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function truncate(text: string, max = MAX_TOOL_TEXT): string {
  if (text.length <= max) return text;
  // Never cut a surrogate pair in half, or the turn would carry a lone surrogate.
  const cut = /[\uD800-\uDBFF]/.test(text.charAt(max - 1)) ? max - 1 : max;
  return `${text.slice(0, cut)}… [${text.length - cut} more chars]`;
}

/** Compact JSON of a tool input; a string holding JSON (Codex `arguments`) is re-compacted. */
export function compactJson(value: unknown, max = MAX_TOOL_TEXT): string {
  let v: unknown = value;
  if (typeof value === 'string') {
    try {
      v = JSON.parse(value);
    } catch {
      return truncate(value, max);
    }
  }
  if (typeof v === 'string') return truncate(v, max);
  return truncate(JSON.stringify(v) ?? '', max);
}

/**
 * Text of a message content: a string, or the `text` of the blocks whose `type` is in `types`,
 * joined by blank lines. Other blocks (images, thinking) contribute nothing. Null when the content
 * has neither shape, which callers count as malformed.
 */
export function contentText(content: unknown, types: readonly string[] = ['text']): string | null {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return null;
  const texts: string[] = [];
  for (const block of content) {
    if (isObj(block) && typeof block.type === 'string' && types.includes(block.type)) {
      if (typeof block.text === 'string') texts.push(block.text);
    }
  }
  return texts.join('\n\n');
}
