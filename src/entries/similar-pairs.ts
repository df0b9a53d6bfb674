/**
 * Every pair of token sets at least `min` alike by Jaccard, without comparing every pair: comparing
 * all n² pairs made `mem tick` and `mem status` quadratic (20,000 entries took minutes). Prefix
 * filtering (Bayardo et al., "Scaling up all pairs similarity search", 2007) is exact: order tokens
 * rarest first; two sets with Jaccard ≥ min share a token among the first |x| − ⌈min·|x|⌉ + 1 of each,
 * so only sets meeting in such a prefix are compared. Positional filtering (Xiao et al., PPJoin, 2008)
 * is exact too: the first prefix token two qualifying sets meet at is their first shared token, so
 * what follows it in the shorter remainder bounds their overlap; a pair whose bound is below the
 * overlap Jaccard ≥ min needs is never compared (on generated corpora with a small vocabulary, most
 * prefix meetings are such pairs: `mem status` spent seconds comparing them). The overlap itself is
 * counted on sorted integer arrays, giving the same count, hence the same similarity, as jaccard().
 */

export interface SimilarPair {
  i: number;
  j: number;
  similarity: number;
}

/** Pairs i < j with jaccard(sets[i], sets[j]) ≥ min (min > 0), in order of i, then j. */
export function* similarPairs(sets: Set<string>[], min: number): Generator<SimilarPair> {
  const df = new Map<string, number>();
  for (const s of sets) for (const t of s) df.set(t, (df.get(t) ?? 0) + 1);
  const order = [...df.keys()].sort((a, b) => df.get(a)! - df.get(b)! || (a < b ? -1 : a > b ? 1 : 0));
  const rank = new Map(order.map((t, r) => [t, r]));
  // Each set as its tokens' ranks, rarest first.
  const sorted = sets.map((s) => Int32Array.from(s, (t) => rank.get(t)!).sort());
  // The slack keeps a prefix long enough when min·size lands a rounding error above an integer.
  const prefixOf = (size: number) => Math.min(size, size - Math.ceil(min * size - 1e-9) + 1);
  // Per token rank: the sets holding it in their prefix, with its position there.
  const holders: Array<number[] | undefined> = new Array(order.length);
  sorted.forEach((x, i) => {
    for (let p = 0; p < prefixOf(x.length); p++) (holders[x[p]!] ??= []).push(i, p);
  });
  // Jaccard ≥ min also needs min·|x| ≤ |y| ≤ |x|/min; seen[j] === i marks j as met by i already.
  const seen = new Int32Array(sets.length).fill(-1);
  const need = min / (1 + min);
  for (let i = 0; i < sets.length; i++) {
    const x = sorted[i]!;
    const size = x.length;
    const candidates: number[] = [];
    for (let p = 0; p < prefixOf(size); p++) {
      const list = holders[x[p]!]!;
      for (let k = 0; k < list.length; k += 2) {
        const j = list[k]!;
        const other = sorted[j]!.length;
        if (j <= i || seen[j] === i || other < min * size - 1e-9 || min * other > size + 1e-9) continue;
        seen[j] = i;
        // The overlap Jaccard ≥ min needs, against what the tokens after this first meeting allow.
        const q = list[k + 1]!;
        if (1 + Math.min(size - p - 1, other - q - 1) < Math.ceil(need * (size + other) - 1e-9)) continue;
        candidates.push(j);
      }
    }
    for (const j of candidates.sort((a, b) => a - b)) {
      const y = sorted[j]!;
      const shared = overlap(x, y);
      const similarity = shared / (size + y.length - shared);
      if (similarity >= min) yield { i, j, similarity };
    }
  }
}

/** How many values two ascending arrays share. */
function overlap(x: Int32Array, y: Int32Array): number {
  let a = 0;
  let b = 0;
  let shared = 0;
  while (a < x.length && b < y.length) {
    if (x[a] === y[b]) {
      shared++;
      a++;
      b++;
    } else if (x[a]! < y[b]!) a++;
    else b++;
  }
  return shared;
}
