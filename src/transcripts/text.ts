/**
 * Small text helpers shared by the format readers. Tool inputs and outputs are truncated because a
 * turn is context for extraction, not an archive: the raw transcript stays where it is.
 *
 * Invariant: text is redacted before it is cut. A secret cut in half is no longer recognisable (a
 * token's prefix before "… [N more chars]" reads as a placeholder), so a cut made first leaked it.
 */
import { markerSpans } from '../secrets/secret-markers.js';
import { redactSecrets } from '../secrets/secrets.js';

export const MAX_TOOL_TEXT = 2000;
/**
 * How far past the cut the redaction looks. A secret starting before the cut and running past this
 * is longer than any pattern's bound (4,096), so its first characters are still judged whole; and a
 * 4 MB tool output costs a 20 KB scan, not the whole line's.
 */
const REDACT_AHEAD = 16 * 1024;

export type Obj = Record<string, unknown>;

export function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function truncate(text: string, max = MAX_TOOL_TEXT): string {
  if (text.length <= max) return text;
  const window = text.slice(0, max + REDACT_AHEAD);
  const red = redactSecrets(window).text;
  if (red.length <= max && window.length === text.length) return red;
  // Never cut a surrogate pair in half, or the turn would carry a lone surrogate.
  let cut = Math.min(max, red.length);
  if (/[\uD800-\uDBFF]/.test(red.charAt(cut - 1))) cut -= 1;
  // Nor a marker: `[REDACTED:gith…` would name no kind.
  const near = Math.max(0, cut - 64);
  const marker = markerSpans(red.slice(near, cut + 64)).find(([start, end]) => near + start < cut && cut < near + end);
  if (marker) cut = near + marker[0];
  return `${red.slice(0, cut)}… [${red.length - cut + text.length - window.length} more chars]`;
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
