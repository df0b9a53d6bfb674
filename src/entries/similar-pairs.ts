/**
 * Every pair of token sets at least `min` alike by Jaccard, without comparing every pair: comparing
 * all n² pairs made `mem tick` and `mem status` quadratic (20,000 entries took minutes). Prefix
 * filtering (Bayardo et al., "Scaling up all pairs similarity search", 2007) is exact: order tokens
 * rarest first; two sets with Jaccard ≥ min share a token among the first |x| − ⌈min·|x|⌉ + 1 of each,
 * so only sets meeting in such a prefix are compared, with jaccard() itself deciding.
 */
import { append } from '../core/group.js';
import { jaccard } from './similarity.js';

export interface SimilarPair {
  i: number;
  j: number;
  similarity: number;
}

/** Pairs i < j with jaccard(sets[i], sets[j]) ≥ min (min > 0), in order of i, then j. */
export function* similarPairs(sets: Set<string>[], min: number): Generator<SimilarPair> {
  const df = new Map<string, number>();
  for (const s of sets) for (const t of s) df.set(t, (df.get(t) ?? 0) + 1);
  const rarestFirst = (a: string, b: string) => df.get(a)! - df.get(b)! || (a < b ? -1 : a > b ? 1 : 0);
  // The slack keeps a prefix long enough when min·size lands a rounding error above an integer.
  const prefixes = sets.map((s) => [...s].sort(rarestFirst).slice(0, s.size - Math.ceil(min * s.size - 1e-9) + 1));
  const holders = new Map<string, number[]>();
  prefixes.forEach((prefix, i) => {
    for (const t of prefix) append(holders, t, i);
  });
  // Jaccard ≥ min also needs min·|x| ≤ |y| ≤ |x|/min; seen[j] === i marks j as a candidate of i already.
  const seen = new Int32Array(sets.length).fill(-1);
  for (let i = 0; i < sets.length; i++) {
    const size = sets[i]!.size;
    const candidates: number[] = [];
    for (const t of prefixes[i]!) {
      for (const j of holders.get(t)!) {
        const other = sets[j]!.size;
        if (j <= i || seen[j] === i || other < min * size - 1e-9 || min * other > size + 1e-9) continue;
        seen[j] = i;
        candidates.push(j);
      }
    }
    for (const j of candidates.sort((a, b) => a - b)) {
      const similarity = jaccard(sets[i]!, sets[j]!);
      if (similarity >= min) yield { i, j, similarity };
    }
  }
}
