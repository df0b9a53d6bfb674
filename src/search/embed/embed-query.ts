/**
 * Vector ranking at query time: embeds the query, secrets redacted (never cached: search writes
 * nothing), and scores every mapped live chunk of the tier by brute-force cosine over the float32
 * cache (dot products of normalised vectors). Chunks overlaid from changed files have no vector yet and rank lexically only.
 */
import type { EmbeddingConfig } from '../../config/schema.js';
import { redactSecrets } from '../../secrets/secrets.js';
import { embedBatch } from './embed-client.js';
import { loadQueryRows, loadVmapFile, spaceOf, type QueryRows } from './embed-store.js';
import { loadTierHead } from '../index/tier-file.js';
import type { VectorRanker } from '../query/outcome.js';

export function vectorRanker(workspace: string, cfg: EmbeddingConfig): VectorRanker {
  let query: Promise<Float32Array> | undefined;
  // Read once for both tiers: the cache is one file for all (tens of MB on a large memory).
  let rows: QueryRows | undefined;
  return async (opened, text, limit) => {
    const load = loadTierHead(workspace, opened.tier);
    if (!('head' in load)) return null;
    // Written from a map by embed-index: each doc once; a row outside the cache (a damaged map) is skipped.
    const map = loadVmapFile(workspace, opened.tier, load.head.epoch, spaceOf(cfg));
    const pairs = map?.pairs ?? [];
    if (pairs.length < 2) return null;
    const cache = (rows ??= loadQueryRows(workspace, cfg, map!));
    if (!cache.dims) return null;
    // Someone is waiting: a short timeout and no retry (interactiveTimeoutMs).
    query ??= embedBatch(cfg, [redactSecrets(text).text.slice(0, 8000)], {
      timeoutMs: cfg.interactiveTimeoutMs,
      retry: false,
    }).then((v) => v[0]!);
    const q = await query;
    if (q.length !== cache.dims) throw new Error(`query embedding has ${q.length} dimensions, the index ${cache.dims}`);
    return nearest(q, cache, pairs, opened.view.isDead, limit).map((h) => ({ ...h, cosine: h.score }));
  };
}

/**
 * The `limit` live docs of a vector map (doc, row, doc, row, ...) nearest to q, best first, by dot
 * product (cosine: the rows are normalised). A row outside the cache (a damaged map) is skipped.
 */
export function nearest(
  q: Float32Array,
  cache: QueryRows,
  pairs: number[],
  isDead: (doc: number) => boolean,
  limit: number,
): { doc: number; score: number }[] {
  const v = cache.vectors;
  const d = cache.dims;
  const docs = new Int32Array(pairs.length >> 1);
  const scores = new Float64Array(pairs.length >> 1);
  let n = 0;
  for (let p = 0; p + 1 < pairs.length; p += 2) {
    const doc = pairs[p]!;
    const row = pairs[p + 1]!;
    if (!(row >= 0 && row < cache.count) || isDead(doc)) continue;
    docs[n] = doc;
    scores[n++] = dot(q, v, row * d, d);
  }
  return topByScore(scores, n, limit).map((i) => ({ doc: docs[i]!, score: scores[i]! }));
}

/** q · v[at, at + d), in four running sums: about twice as fast as one before the JIT has warmed up (a cold search runs it once). */
function dot(q: Float32Array, v: Float32Array, at: number, d: number): number {
  let a = 0,
    b = 0,
    c = 0,
    e = 0;
  let i = 0;
  for (; i + 3 < d; i += 4) {
    a += q[i]! * v[at + i]!;
    b += q[i + 1]! * v[at + i + 1]!;
    c += q[i + 2]! * v[at + i + 2]!;
    e += q[i + 3]! * v[at + i + 3]!;
  }
  for (; i < d; i++) a += q[i]! * v[at + i]!;
  return a + b + c + e;
}

/**
 * The indexes of the `limit` best of `scores[0..n)`, best first, ties in index order: what a stable
 * sort of all n then a cut gives, without sorting tens of thousands of objects (a numeric sort of
 * a copy finds the cut-off score; only what reaches it is sorted).
 */
export function topByScore(scores: Float64Array, n: number, limit: number): number[] {
  const top: number[] = [];
  if (n <= limit) {
    for (let i = 0; i < n; i++) top.push(i);
  } else {
    const cut = scores.slice(0, n).sort()[n - limit]!;
    let above = 0;
    for (let i = 0; i < n; i++) if (scores[i]! > cut) above++;
    let ties = limit - above;
    for (let i = 0; i < n; i++) if (scores[i]! > cut || (scores[i] === cut && ties-- > 0)) top.push(i);
  }
  return top.sort((a, b) => scores[b]! - scores[a]! || a - b);
}
