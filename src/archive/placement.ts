/**
 * Where an entry's statement is in a transcript now: the cited run of turns (`message_range`) scored
 * against every other run of as many turns. A turn inserted or removed before the cited ones shifts
 * them onto a neighbour, and a neighbour often shares half the statement's words (the proposal just
 * before a decision), so the cited turns alone passing the bar proves nothing: they count as holding
 * the statement only when no other run holds more of it. Only user and assistant turns count; tool
 * output is never a source.
 */
import { tokens } from '../entries/similarity.js';
import type { Turn } from '../transcripts/index.js';

/** Share of the statement's words a run of turns must hold to count as holding it. */
export const MATCH = 0.5;

export interface Placement {
  /** The cited turns hold the statement, and no other run of as many turns holds more of it. */
  found: boolean;
  /** Share of the statement's words the cited turns hold (0..1). */
  cited: number;
  /** When not found: the run that holds it now (as many turns as cited, nearest the cited ones on ties), if any. */
  nowAt: [number, number] | null;
  /** Share of the statement's words nowAt holds. */
  nowScore: number;
}

/** Feed it every turn of the file in order, then ask where the statement is. */
export function placeStatement(
  statement: string,
  range: [number, number],
): { add(turn: Turn): void; result(): Placement } {
  const words = tokens(statement);
  const len = Math.max(1, range[1] - range[0] + 1);
  const cited = new Set<string>();
  const run: Array<Set<string>> = [];
  const count = new Map<string, number>();
  let held = 0;
  let best = { start: 0, score: 0 };
  const share = (n: number) => (words.size ? n / words.size : 0);
  const bump = (w: string, by: number) => {
    const n = (count.get(w) ?? 0) + by;
    count.set(w, n);
    if (by > 0 && n === 1) held++;
    if (by < 0 && n === 0) held--;
  };
  return {
    add(t) {
      const has = new Set<string>();
      if (t.role === 'user' || t.role === 'assistant') for (const w of tokens(t.text)) if (words.has(w)) has.add(w);
      if (t.index >= range[0] && t.index <= range[1]) for (const w of has) cited.add(w);
      run.push(has);
      for (const w of has) bump(w, 1);
      if (run.length > len) for (const w of run.shift()!) bump(w, -1);
      const start = t.index - len + 1;
      if (run.length < len || start === range[0]) return;
      const score = share(held);
      const nearer = Math.abs(start - range[0]) < Math.abs(best.start - range[0]);
      if (score > best.score || (score === best.score && score > 0 && nearer)) best = { start, score };
    },
    result() {
      const citedScore = share(cited.size);
      const found = citedScore >= MATCH && best.score <= citedScore;
      const moved = !found && best.score >= MATCH;
      return {
        found,
        cited: citedScore,
        nowAt: moved ? [best.start, best.start + len - 1] : null,
        nowScore: moved ? best.score : 0,
      };
    },
  };
}
