/**
 * Impact order of one long posting run (segment-format.ts): a query that reads only the first pairs
 * of a very common term (engine.ts POSTING_CAP) gets its best docs. Pairs are (doc, field << 24 | tf);
 * the order is tf descending, then shorter body, then original position (so it is stable).
 */

const TWO53 = 2 ** 53;

/** Reorders in place the run of `n` pairs at pair offset `from`; `bodyLength` takes the run's doc ids. */
export function impactOrder(post: Uint32Array, from: number, n: number, bodyLength: (doc: number) => number): void {
  const run = post.slice(from * 2, (from + n) * 2);
  let maxTf = 0;
  let maxLen = 0;
  for (let i = 0; i < n; i++) {
    maxTf = Math.max(maxTf, run[i * 2 + 1]! & 0xffffff);
    maxLen = Math.max(maxLen, bodyLength(run[i * 2]!));
  }
  let order: ArrayLike<number>;
  const range = (maxTf + 1) * (maxLen + 1);
  if (range <= 4 * n + 65536) {
    // Small key range (the usual case): a stable counting sort on (maxTf - tf, body length).
    const keys = new Uint32Array(n);
    const counts = new Uint32Array(range + 1);
    for (let i = 0; i < n; i++) {
      const k = (maxTf - (run[i * 2 + 1]! & 0xffffff)) * (maxLen + 1) + bodyLength(run[i * 2]!);
      keys[i] = k;
      counts[k + 1] = counts[k + 1]! + 1;
    }
    for (let k = 1; k <= range; k++) counts[k] = counts[k]! + counts[k - 1]!;
    const idx = new Uint32Array(n);
    for (let i = 0; i < n; i++) {
      const k = keys[i]!;
      idx[counts[k]!] = i;
      counts[k] = counts[k]! + 1;
    }
    order = idx;
  } else if (range * n < TWO53) {
    // One packed number per pair, unique thanks to the position: a plain numeric sort.
    const keys = new Float64Array(n);
    for (let i = 0; i < n; i++)
      keys[i] = ((maxTf - (run[i * 2 + 1]! & 0xffffff)) * (maxLen + 1) + bodyLength(run[i * 2]!)) * n + i;
    keys.sort();
    const idx = new Uint32Array(n);
    for (let i = 0; i < n; i++) idx[i] = keys[i]! % n;
    order = idx;
  } else {
    const idx = Array.from({ length: n }, (_, i) => i);
    idx.sort(
      (a, b) =>
        (run[b * 2 + 1]! & 0xffffff) - (run[a * 2 + 1]! & 0xffffff) ||
        bodyLength(run[a * 2]!) - bodyLength(run[b * 2]!) ||
        a - b,
    );
    order = idx;
  }
  let at = from * 2;
  for (let k = 0; k < n; k++) {
    const i = order[k]!;
    post[at++] = run[i * 2]!;
    post[at++] = run[i * 2 + 1]!;
  }
}
