/**
 * Vector ranking at query time: embeds the query, secrets redacted (never cached: search writes
 * nothing), and scores every mapped live chunk of the tier by brute-force cosine over the float32
 * cache (dot products of normalised vectors). Chunks overlaid from changed files have no vector yet and rank lexically only.
 */
import type { EmbeddingConfig } from '../config/schema.js';
import { redactSecrets } from '../secrets/secrets.js';
import { embedBatch } from './embed-client.js';
import { loadCache, loadVmap, spaceOf } from './embed-store.js';
import { loadTierHead } from './tier-file.js';
import type { VectorRanker } from './outcome.js';

export function vectorRanker(workspace: string, cfg: EmbeddingConfig): VectorRanker {
  let query: Promise<Float32Array> | undefined;
  return async (opened, text, limit) => {
    const load = loadTierHead(workspace, opened.tier);
    if (!('head' in load)) return null;
    const map = loadVmap(workspace, opened.tier, load.head.epoch, spaceOf(cfg));
    if (!map.size) return null;
    const { cache } = loadCache(workspace, cfg);
    if (!cache.dims) return null;
    // Someone is waiting: a short timeout and no retry (interactiveTimeoutMs).
    query ??= embedBatch(cfg, [redactSecrets(text).text.slice(0, 8000)], { timeoutMs: cfg.interactiveTimeoutMs, retry: false }).then((v) => v[0]!);
    const q = await query;
    if (q.length !== cache.dims) throw new Error(`query embedding has ${q.length} dimensions, the index ${cache.dims}`);
    const scored: { doc: number; score: number; cosine: number }[] = [];
    const v = cache.vectors;
    const d = cache.dims;
    for (const [doc, row] of map) {
      if (opened.view.isDead(doc) || row >= cache.keys.length) continue;
      let dot = 0;
      const at = row * d;
      for (let i = 0; i < d; i++) dot += q[i]! * v[at + i]!;
      scored.push({ doc, score: dot, cosine: dot });
    }
    scored.sort((a, b) => b.score - a.score);
    return scored.slice(0, limit);
  };
}
