/**
 * A safe cut-off before minisearch ranks: the docs that can be among the query's best, by BM25
 * computed over dense arrays in one pass (see candidates()), with memfold's one BM25 (bm25.ts).
 */
import { BOOST, fieldScore, idf } from './bm25.js';
import type { Postings } from './minisearch-state.js';
import { FIELDS } from '../text/types.js';

/** Relative slack of the cut-off below: far above floating-point error, far below any real score gap. */
const CUT_SLACK = 1e-9;

/**
 * The docs that can be among the `limit` best, by minisearch's own formula (BM25 with the
 * parameters it is given, term and field boosts, times the number of query terms matched) computed
 * here in one cheap pass over dense arrays: every doc whose score reaches the limit-th best, less a
 * slack, is kept; minisearch then scores those alone (direct()) while its document frequencies still
 * count every doc, so the kept docs' scores, their order and the top `limit` are exactly those of
 * ranking every doc (a test compares both). Undefined when there is nothing to cut.
 */
export function candidates(p: Postings, idfFix: Map<string, number>, limit: number): Set<number> | undefined {
  const { read } = p;
  const n = read.docs.length;
  if (n <= limit) return undefined;
  const { lens } = read;
  const score = new Float64Array(n);
  const matched = new Uint8Array(n);
  const stamp = new Int32Array(n).fill(-1);
  p.index.forEach(([term, fields], t) => {
    const termBoost = idfFix.get(term) ?? 1;
    for (let f = 0; f < FIELDS.length; f++) {
      const run = fields.get(f);
      if (!run) continue;
      const df = run.docs.length;
      const avg = p.avgLen[f]!;
      const termIdf = idf(p.documentCount, df);
      const boost = termBoost * BOOST[FIELDS[f]!];
      for (let j = 0; j < df; j++) {
        const i = read.slot(run.docs[j]!);
        const tf = run.tfs[j]!;
        score[i] = score[i]! + boost * fieldScore(tf, lens[i * 3 + f]!, avg, termIdf);
        if (stamp[i] !== t) {
          stamp[i] = t;
          matched[i] = matched[i]! + 1;
        }
      }
    }
  });
  const final = new Float64Array(n);
  for (let i = 0; i < n; i++) final[i] = score[i]! * matched[i]!;
  const threshold = nthSmallest(Float64Array.from(final), n - limit) * (1 - CUT_SLACK);
  const keep = new Set<number>();
  for (let i = 0; i < n; i++) if (final[i]! >= threshold) keep.add(read.docs[i]!);
  return keep;
}

/**
 * The value at index `k` of `values` sorted ascending, found by selection (quickselect, median of
 * three) in O(n) instead of a sort: sorting a query's 15,000 candidate scores took about 1 ms of a
 * served search. Reorders `values`.
 */
export function nthSmallest(values: Float64Array, k: number): number {
  let lo = 0;
  let hi = values.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    // Median of three as the pivot: sorted or equal runs stay linear.
    const a = values[lo]!;
    const b = values[mid]!;
    const c = values[hi]!;
    const pivot = a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i]! < pivot) i++;
      while (values[j]! > pivot) j--;
      if (i <= j) {
        const t = values[i]!;
        values[i++] = values[j]!;
        values[j--] = t;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return values[k]!;
  }
  return values[k]!;
}
