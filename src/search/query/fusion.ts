/**
 * Lexical and vector rankings fused so that a poor embedding model cannot make search worse (pure).
 *
 * Equal-weight reciprocal-rank fusion gave a vector ranking the same say as BM25 whatever its
 * quality: with a weak model (hashed bags of words, a 2018 sentence encoder) hybrid recall@5 fell
 * 12-20 points below lexical alone (issue 32), because a vector list's noise pulled good lexical hits
 * out of the top 5. Here the lexical score stays the base and the vector ranking only adds to it, in
 * proportion to how much the two rankings agree on this query:
 *
 *   agreement  = share of the lexical top AGREE_DEPTH also in the vector top AGREE_DEPTH, less what
 *                two random orders of the candidates share by chance (0 for a model unrelated to the
 *                words, for this query);
 *   w          = MAX_WEIGHT × agreement;
 *   lexical hit: score × (1 + w × v), v ∈ [0, 1] the doc's cosine scaled between the vector list's
 *                worst and best;
 *   vector-only: the k-th lexical score × v × w / MAX_WEIGHT, so a doc no query word matched joins
 *                the list below the lexical top k (whose scores only grow), and ties its bottom only
 *                with a model that fully agrees with BM25 on this query.
 *
 * So a strong lexical match is never demoted by a weak vector score (its score can only grow), a
 * random model changes nothing, and a model that agrees with BM25 where BM25 is right gets a say
 * where BM25 has little to go on. With no lexical hit at all the vector ranking is the answer.
 */
import type { Ranked } from './rank.js';

export const AGREE_DEPTH = 20;
export const MAX_WEIGHT = 0.5;

export interface Fused {
  scores: Map<number, number>;
  /** The vector ranking's weight for this query (0: it changed nothing). */
  weight: number;
}

/** Agreement of two rankings' heads beyond chance, in [0, 1]; `pool` is how many docs either could rank. */
export function agreement(lex: readonly Ranked[], vec: readonly Ranked[], pool: number): number {
  const depth = Math.min(AGREE_DEPTH, lex.length, vec.length);
  if (depth === 0) return 0;
  const top = new Set(lex.slice(0, depth).map((h) => h.doc));
  const shared = vec.slice(0, depth).filter((h) => top.has(h.doc)).length;
  const chance = (depth * depth) / Math.max(depth, pool);
  return depth > chance ? Math.max(0, (shared - chance) / (depth - chance)) : 0;
}

/** Fused scores of lexical hits (BM25 scores) and vector hits (cosines), best first in both lists; `k` is the results asked for. */
export function fuse(lex: readonly Ranked[], vec: readonly Ranked[], k: number, pool: number): Fused {
  const scores = new Map(lex.map((h) => [h.doc, h.score]));
  if (!vec.length) return { scores, weight: 0 };
  if (!lex.length) return { scores: new Map(vec.map((h) => [h.doc, h.score])), weight: 1 };
  const weight = MAX_WEIGHT * agreement(lex, vec, pool);
  if (weight === 0) return { scores, weight };
  let best = -Infinity;
  let worst = Infinity;
  for (const h of vec) {
    best = Math.max(best, h.score);
    worst = Math.min(worst, h.score);
  }
  const scale = (s: number) => (best > worst ? (s - worst) / (best - worst) : 1);
  const floor = lex[Math.min(k, lex.length) - 1]!.score;
  for (const h of vec) {
    const v = scale(h.score);
    const l = scores.get(h.doc);
    scores.set(h.doc, l === undefined ? floor * v * (weight / MAX_WEIGHT) : l * (1 + weight * v));
  }
  return { scores, weight };
}
