/**
 * The embedding step of `mem index` (DESIGN §6): every live chunk gets a cache row. Chunks already
 * mapped keep their row; others are looked up in the cache by sha256(model, dims, text) and only the
 * misses are sent, in batches of `batchSize`. A provider failure keeps what was embedded, reports the
 * reason and never fails the index: search falls back to lexical ranking for unmapped chunks.
 */
import path from 'node:path';
import type { EmbeddingConfig } from '../../config/schema.js';
import { redactSecrets } from '../../secrets/secrets.js';
import type { WorkspaceWriter } from '../../write/writer.js';
import { embedBatch, EmbeddingError } from './embed-client.js';
import {
  appendRows,
  EMBED_DIR,
  loadCache,
  loadVmap,
  spaceOf,
  textKey,
  vmapFile,
  type VectorMap,
} from './embed-store.js';
import { segmentOf } from '../index/doc-runs.js';
import { DiskSegment } from '../index/segment.js';
import { INDEX_DIR, liveDocs } from '../index/tier-file.js';
import type { TierState } from '../index/tier-state.js';
import type { DocRecord, Tier } from '../text/types.js';
import type { ModelCheck } from './model-check.js';

/** What is embedded (and keys the cache) for a chunk: its heading and text, secrets redacted (DESIGN §8). */
export function embedText(r: Pick<DocRecord, 'heading' | 'text'>): string {
  return redactSecrets(r.heading ? `${r.heading}\n${r.text}` : r.text).text;
}

export interface EmbeddingRun {
  counters: EmbeddingCounters;
  warnings: string[];
}

/** `budgetMs`: the whole step's time when someone waits (after a write): no retry, what is left unembedded waits for the next `mem index`. */
export async function embedTiers(
  workspace: string,
  writer: WorkspaceWriter,
  cfg: EmbeddingConfig,
  states: Record<Tier, TierState>,
  budgetMs?: number,
): Promise<EmbeddingRun> {
  const counters: EmbeddingCounters = { computed: 0, cached: 0, failed: null };
  const { cache, problem } = loadCache(workspace, cfg);
  const space = spaceOf(cfg);
  const warnings = problem
    ? [`embedding cache ${EMBED_DIR}/${space}.{json,vec} unusable (${problem}): every chunk is embedded again`]
    : [];
  const cacheRows = cache.keys.length;
  const maps = new Map<Tier, Map<number, number>>();
  const wanted = new Map<string, { text: string; docs: [Tier, number][] }>();
  for (const [tier, state] of Object.entries(states) as [Tier, TierState][]) {
    const old = loadVmap(workspace, tier, state.epoch, space);
    const map = new Map<number, number>();
    const segs = state.segments.map((s) => DiskSegment.open(path.join(workspace, INDEX_DIR), s.name, s.first, s.count));
    try {
      for (const doc of liveDocs(state)) {
        const row = old.get(doc);
        // A row past the cache's end (a cache lost, damaged or older than the map) is not trusted.
        if (row !== undefined && row < cache.keys.length) {
          map.set(doc, row);
          continue;
        }
        const seg = segmentOf(segs, doc);
        if (!seg) continue;
        const text = embedText(seg.record(doc));
        const key = textKey(cfg, text);
        const hit = cache.rows.get(key);
        if (hit !== undefined) {
          map.set(doc, hit);
          counters.cached++;
          continue;
        }
        const w = wanted.get(key) ?? { text, docs: [] };
        w.docs.push([tier, doc]);
        wanted.set(key, w);
      }
    } finally {
      segs.forEach((s) => s.close());
    }
    maps.set(tier, map);
  }
  const todo = [...wanted.entries()];
  const deadline = performance.now() + (budgetMs ?? Infinity);
  for (let i = 0; i < todo.length; i += cfg.batchSize) {
    const batch = todo.slice(i, i + cfg.batchSize);
    const left = Math.round(deadline - performance.now());
    try {
      if (left < 1) throw new EmbeddingError(`${todo.length - i} chunks left unembedded after ${budgetMs} ms`);
      const vecs = await embedBatch(
        cfg,
        batch.map(([, w]) => w.text),
        budgetMs === undefined ? { keepAlive: true } : { timeoutMs: left, retry: false, keepAlive: true },
      );
      appendRows(
        cache,
        batch.map(([k]) => k),
        vecs,
      );
      counters.computed += batch.length;
      for (const [key, w] of batch) for (const [tier, doc] of w.docs) maps.get(tier)!.set(doc, cache.rows.get(key)!);
    } catch (err) {
      counters.failed = (err as Error).message;
      break;
    }
  }
  if (cache.keys.length !== cacheRows) {
    // `.vec` first: a crash before `.json` leaves extra rows that loadCache ignores.
    const base = `${EMBED_DIR}/${space}`;
    await writer.write(
      `${base}.vec`,
      new Uint8Array(cache.vectors.buffer, cache.vectors.byteOffset, cache.vectors.byteLength),
    );
    await writer.write(`${base}.json`, JSON.stringify({ model: cfg.model, dims: cache.dims, keys: cache.keys }));
  }
  for (const [tier, map] of maps) {
    const vm: VectorMap = {
      epoch: states[tier].epoch,
      space,
      pairs: [...map].flat(),
      dims: cache.dims,
      rows: cache.keys.length,
    };
    await writer.write(vmapFile(tier), JSON.stringify(vm));
  }
  return { counters, warnings };
}

export interface EmbeddingCounters {
  computed: number;
  cached: number;
  failed: string | null;
  /** The model check, when this run made it (embed-check.ts). */
  check?: ModelCheck;
}
