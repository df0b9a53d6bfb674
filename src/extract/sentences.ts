/**
 * Sentence-level text helpers for the offline extractor. Quoted material (fenced code, `>` quotes)
 * is removed first: words a person pasted in are not words they said.
 */

export function stripQuoted(text: string): string {
  return text
    .replace(/^[ \t]*(```|~~~)[^\n]*\n[\s\S]*?(?:^[ \t]*\1[^\n]*$|(?![\s\S]))/gm, ' ')
    .split('\n')
    .filter((l) => !/^\s*>/.test(l))
    .join('\n');
}

/** Splits at sentence ends (". ", "!", "?", CJK 。！？) and line breaks; "e.g." or "v1.2" stay whole. */
export function sentences(text: string): string[] {
  return text
    .split(/\r?\n|(?<=[.!?])(?<!\b(?:e\.g|i\.e|etc|vs|cf|approx)\.)\s+|(?<=[。！？])\s*/i)
    .map((s) => s.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '').trim())
    .filter(Boolean);
}

export function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Cuts at a word (or CJK character) boundary near `max` characters. */
export function clip(s: string, max: number): string {
  const chars = Array.from(s);
  if (chars.length <= max) return s;
  let cut = chars.slice(0, max).join('');
  // Never half a redaction marker: `Password=[REDACTED:passwor` reads as a password to lint --secrets.
  const open = cut.lastIndexOf('[');
  const tail = cut.slice(open);
  if (open >= 0 && (MARKER_OPEN.startsWith(tail) || (tail.startsWith(MARKER_OPEN) && !tail.includes(']')))) cut = cut.slice(0, open);
  const space = cut.lastIndexOf(' ');
  return (space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,，;；:：=-]+$/, '');
}

const MARKER_OPEN = '[REDACTED:';

export function trimEnd(s: string): string {
  return s.replace(/[\s.。!！?？,，;；:：]+$/, '');
}

export function normalise(s: string): string {
  return s.toLowerCase().replace(/[\s\p{P}]+/gu, ' ').trim();
}
