/**
 * Characters that split a token without showing: control characters other than tab and line breaks
 * (a NUL, or a NUL between every letter of a UTF-16 file read as UTF-8) and invisible format
 * characters (zero-width space, byte-order mark, direction marks). Inside a key, or inside the
 * armour of a private key, they would hide it from every pattern, so secrets.ts scans the text
 * without any of them and maps each finding back onto the text as written, splitters and all. Only
 * the scan sees the text so (stripControl in clean.ts turns a control character between words into
 * a space).
 */
import { UNICODE_DASHES } from './secret-values.js';

// The soft hyphen is a format character the patterns read as a dash (secret-values.ts): it stays.
const SPLITTER = String.raw`(?:(?![${UNICODE_DASHES}])[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\p{Cf}])`;
const SPLITTERS = new RegExp(`${SPLITTER}+`, 'gu');

export interface Unsplit {
  /** The text without its splitters. */
  text: string;
  /** The offset in the original text of an offset in `text`: of a finding's start, or of its end (exclusive). */
  original(at: number, end: boolean): number;
}

/** Undefined when the text holds no splitter (nearly all text: one scan for a rare class of character). */
export function withoutSplitters(text: string): Unsplit | undefined {
  // For each run taken out: where it was in the new text, and how many characters went up to it.
  const at: number[] = [];
  const removed: number[] = [];
  let out = '';
  let from = 0;
  for (const m of text.matchAll(SPLITTERS)) {
    out += text.slice(from, m.index);
    at.push(out.length);
    removed.push((removed.at(-1) ?? 0) + m[0].length);
    from = m.index + m[0].length;
  }
  if (!at.length) return undefined;
  out += text.slice(from);
  return {
    text: out,
    original(offset, end) {
      // Runs before the character at `offset` (a start), or before the one ending there (an end).
      let lo = 0;
      let hi = at.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (end ? at[mid]! < offset : at[mid]! <= offset) lo = mid + 1;
        else hi = mid;
      }
      return offset + (lo ? removed[lo - 1]! : 0);
    },
  };
}
