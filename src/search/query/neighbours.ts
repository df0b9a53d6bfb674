/**
 * Neighbour lift: a doc's lexical score gains NEIGHBOUR_WEIGHT × the better score of the docs just
 * before and after it in the same run (a transcript's consecutive archive windows). A window boundary
 * can fall between a question and its answer, or between two turns that each hold half of the
 * query's words; the window whose neighbour also matches is then the likelier place of the answer,
 * above a window that holds the same words among unrelated turns. Only docs the lexical search
 * ranked lend a score; the order stays lexical where no neighbour matches. Pure.
 *
 * On the labelled set (issue 32, dev `--archive`, recall@1 / @10 and MRR at C = 8,000): 73.1 / 88.5 /
 * 0.801 → 76.9 / 92.3 / 0.829, the same from a weight of 0.3 to 0.75 (0.2: recall@1 unchanged; 1.0:
 * 69.2); the sum of both neighbours instead of the better one: no better.
 */
import type { Ranked } from './rank.js';

export const NEIGHBOUR_WEIGHT = 0.5;

/** `adjacent(doc, other)`: whether `other` (doc ± 1) is a live doc of the same run as `doc`. */
export type Adjacent = (doc: number, other: number) => boolean;

/** `lex` (best first) with each doc's score lifted by its better ranked neighbour's, best first. */
export function liftByNeighbours<R extends Ranked>(lex: readonly R[], adjacent: Adjacent): R[] {
  const score = new Map(lex.map((h) => [h.doc, h.score]));
  const near = (doc: number, other: number) => (score.has(other) && adjacent(doc, other) ? score.get(other)! : 0);
  return lex
    .map((h) => ({
      ...h,
      score: h.score + NEIGHBOUR_WEIGHT * Math.max(near(h.doc, h.doc - 1), near(h.doc, h.doc + 1)),
    }))
    .sort((a, b) => b.score - a.score || a.doc - b.doc);
}
