/**
 * An archive hit's snippet: the lines of its window that answer, not the whole window. A turn that
 * holds a query term is shown whole, with the turns after it up to the first one by the other side
 * (at most AFTER): a question's answer is the next turn of the other role, often after a tool call
 * or a second message of the asker's, and shares few of its words. A match in a window's last turns
 * is followed into the next window of the same transcript (`next`, its first turns), so a window
 * boundary between a question and its answer does not hide the answer. Lines are folded as the
 * index folds them, so `决定` finds the line that says `決定`. Pure.
 *
 * On the labelled set (issue 32, dev `--archive`, recall@1 / @5 at C = 8,000): the turn after each
 * match 63.5 / 73.1 → 63.5 / 76.9; across the window boundary → 69.2 / 76.9; up to the other side's
 * turn → 73.1 / 80.8.
 */
import { fold } from '../search/text/fold.js';

/** Characters a snippet shows at most. */
export const SNIPPET = 320;
/** Turns shown after a matching one, at most (fewer when the other side speaks first). */
export const AFTER = 2;

const MARK = /^\[\d+\] (\w+)/;

/** A window's first `turns` turns (`[n] role: …` blocks), as the text after another window. */
export function firstTurns(text: string, turns: number): string {
  return text.split(/\n(?=\[\d+\] )/, turns).join('\n');
}

/**
 * The snippet of a window's `text` for the query `terms`; `next()` gives the turns that follow the
 * window, if any, read only when a match is close enough to the window's end to need them.
 */
export function snippet(text: string, terms: string[], next?: () => string | undefined): string {
  const own = text.split('\n');
  const matched = own.map((l) => terms.some((w) => fold(l).includes(w)));
  let lines = own;
  const last = matched.lastIndexOf(true);
  if (next && last >= 0 && own.slice(last).filter((l) => MARK.test(l)).length <= AFTER) {
    const more = next();
    if (more) lines = [...own, ...more.split('\n')];
  }
  // Each line's turn: a `[n] ` line starts one; lines before the first are turn 0 (no role).
  const roles: (string | undefined)[] = [undefined];
  const turnOf = lines.map((l) => {
    const m = MARK.exec(l);
    if (m) roles.push(m[1]);
    return roles.length - 1;
  });
  const shown = new Set<number>();
  matched.forEach((m, i) => {
    if (!m) return;
    const t = turnOf[i]!;
    shown.add(t);
    for (let j = t + 1; j <= t + AFTER && j < roles.length; j++) {
      shown.add(j);
      if (roles[j] !== roles[t]) break;
    }
  });
  const hit = lines.filter((_, i) => shown.has(turnOf[i]!));
  const out = (hit.length ? hit : own).join(' … ').replace(/\s+/g, ' ');
  if (out.length <= SNIPPET) return out;
  const low = fold(out);
  const first = Math.max(0, Math.min(...terms.map((t) => low.indexOf(t)).filter((i) => i >= 0), out.length) - 60);
  return `${first ? '… ' : ''}${out.slice(first, first + SNIPPET)} …`;
}
