/**
 * A file keeps its line ending. A CRLF file (a Windows editor, git's `autocrlf`) that a job appends to
 * or rewrites must not come out with mixed endings, nor be rewritten once more just for its endings.
 */
export type LineEnding = '\r\n' | '\n';

/** How many line breaks of each kind `text` holds. */
export function lineBreaks(text: string): { crlf: number; lf: number } {
  const crlf = text.split('\r\n').length - 1;
  return { crlf, lf: text.split('\n').length - 1 - crlf };
}

/** The line ending most of the first text with a line break uses (a tie: LF); LF for none. */
export function lineEndingOf(...texts: string[]): LineEnding {
  for (const text of texts) {
    const { crlf, lf } = lineBreaks(text);
    if (crlf + lf > 0) return crlf > lf ? '\r\n' : '\n';
  }
  return '\n';
}

export const toLf = (text: string): string => text.replace(/\r\n/g, '\n');

/**
 * `next` (a change to `before`) with the line breaks it adds ending as `before`'s lines mostly do.
 * Only the changed span (between the longest common prefix and suffix) is touched, so the lines a
 * change keeps stay byte for byte, whatever mix of endings a person left in them. `eol`: the ending
 * to give them when `before` is a part of a file (the whole file's, not the part's).
 */
export function keepLineEnding(
  before: string | undefined,
  next: string,
  eol = before === undefined ? '\n' : lineEndingOf(before),
): string {
  if (before === undefined || eol === '\n') return next;
  const max = Math.min(before.length, next.length);
  let from = 0;
  while (from < max && before[from] === next[from]) from++;
  let tail = 0;
  while (tail < max - from && before[before.length - 1 - tail] === next[next.length - 1 - tail]) tail++;
  const to = next.length - tail;
  return next.replace(/\r?\n/g, (m: string, at: number) => (m === '\n' && at >= from && at < to ? '\r\n' : m));
}

/**
 * A whole file as a job plans on it (LF, no byte order mark), and `restore` to give the text it
 * writes back the file's own form: MEMORY.md, rewritten whole, keeps its mark and line ending.
 */
export function plainText(raw: string): { text: string; restore: (text: string) => string } {
  const bom = raw.startsWith('\uFEFF') ? '\uFEFF' : '';
  const eol = lineEndingOf(raw);
  return {
    text: toLf(raw.slice(bom.length)),
    restore: (text) => bom + (eol === '\n' ? text : text.replace(/\n/g, eol)),
  };
}
