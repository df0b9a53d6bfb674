/**
 * Splits a run of lines into overlapping windows on line boundaries (DESIGN §6): each window holds
 * about `chunkTokens` tokens and starts `overlapTokens` before the previous one ended, so a phrase
 * cut by a boundary is still whole in one window. A single over-long line is its own window.
 */
import { countTokens } from './tokenize.js';

export interface LineWindow {
  /** Indexes into the given lines, inclusive. */
  from: number;
  to: number;
}

export function lineWindows(lines: string[], chunkTokens: number, overlapTokens: number): LineWindow[] {
  const counts = lines.map(countTokens);
  const total = counts.reduce((a, b) => a + b, 0);
  if (total <= chunkTokens || lines.length <= 1) return [{ from: 0, to: Math.max(0, lines.length - 1) }];
  const out: LineWindow[] = [];
  let from = 0;
  while (from < lines.length) {
    let to = from;
    let n = counts[from]!;
    while (to + 1 < lines.length && n + counts[to + 1]! <= chunkTokens) n += counts[++to]!;
    out.push({ from, to });
    if (to >= lines.length - 1) break;
    let back = to;
    let overlap = 0;
    while (back > from && overlap + counts[back]! <= overlapTokens) overlap += counts[back--]!;
    from = Math.max(back + 1, from + 1);
  }
  return out;
}
