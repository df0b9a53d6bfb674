/**
 * The embedding model check of `mem index` (issue 32 item 3): after the first index with a model
 * (a new `model` or `dimensions`), each of up to CHECK_QUERIES entries of the warm tier is looked up
 * by its own title, once by BM25 alone and once by the model's vectors alone; an entry is found when
 * one of its chunks is in the top CHECK_TOP. One embedding call per `batchSize` titles (one for most).
 * The figures are kept per model in `.mem/embeddings/checks/<space>.json`, shown by `mem index` and
 * `mem status`; a model whose vectors find fewer than half of what BM25 finds ranks worse than
 * lexical search alone and is warned about (random vectors, a chat model, the wrong dimensions).
 *
 * Invariant: the check reads the index and writes only its own derived file; it never fails the
 * index (a provider error is reported and the check is tried again at the next `mem index`).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { EmbeddingConfig } from '../../config/schema.js';
import type { LoadedConfig } from '../../config/load.js';
import { redactSecrets } from '../../secrets/secrets.js';
import { writeDerivedFile } from '../../write/atomic.js';
import { embedBatch } from '../embed/embed-client.js';
import { loadQueryRows, loadVmapFile, spaceOf } from '../embed/embed-store.js';
import { CHECK_QUERIES, CHECK_TOP, type ModelCheck } from '../embed/model-check.js';
import { checkFile, readModelCheck } from '../embed/model-check-file.js';
import { nearest } from '../embed/embed-query.js';
import { lexicalSearch } from '../query/engine.js';
import { scanWorkspace } from '../index/scan.js';
import { loadTierHead } from '../index/tier-file.js';
import { queryTerms } from '../text/tokenize.js';
import { openTier } from '../index/view.js';

/** Fewer than this many titled entries say too little about a model: no check. */
const MIN_QUERIES = 8;

/** Runs the check when the configured model has none stored; undefined when there is nothing to check. */
export async function checkModel(
  workspace: string,
  loaded: LoadedConfig,
  cfg: EmbeddingConfig,
  now = new Date(),
): Promise<ModelCheck | undefined> {
  if (readModelCheck(workspace, cfg)) return undefined;
  const load = loadTierHead(workspace, 'warm');
  if (!('head' in load)) return undefined;
  const map = loadVmapFile(workspace, 'warm', load.head.epoch, spaceOf(cfg));
  if (!map || map.pairs.length < 2 * MIN_QUERIES) return undefined;
  const { pairs } = map;
  const rows = loadQueryRows(workspace, cfg, map);
  if (!rows.dims) return undefined;
  const opened = await openTier(
    workspace,
    'warm',
    scanWorkspace(workspace, loaded.config.extraPaths, 'warm'),
    loaded.config.search,
  );
  try {
    if (opened.problem) return undefined;
    const { view } = opened;
    // Every live chunk by its title; an entry split into several chunks is found by any of them.
    const byTitle = new Map<string, Set<number>>();
    for (const seg of view.segments) {
      for (let doc = seg.first; doc < seg.first + seg.count; doc++) {
        if (view.isDead(doc)) continue;
        const title = titleOf(seg.record(doc).heading);
        if (title) byTitle.set(title, (byTitle.get(title) ?? new Set()).add(doc));
      }
    }
    const titles = spread([...byTitle.keys()], CHECK_QUERIES);
    if (titles.length < MIN_QUERIES) return undefined;
    let lexical = 0;
    for (const t of titles)
      if (lexicalSearch(view, queryTerms(t), CHECK_TOP).some((h) => byTitle.get(t)!.has(h.doc))) lexical++;
    const queries: Float32Array[] = [];
    for (let i = 0; i < titles.length; i += cfg.batchSize)
      queries.push(
        ...(await embedBatch(
          cfg,
          titles.slice(i, i + cfg.batchSize).map((t) => redactSecrets(t).text),
          { keepAlive: true },
        )),
      );
    let vector = 0;
    titles.forEach((t, i) => {
      if (
        queries[i]!.length === rows.dims &&
        nearest(queries[i]!, rows, pairs, view.isDead, CHECK_TOP).some((h) => byTitle.get(t)!.has(h.doc))
      )
        vector++;
    });
    const check: ModelCheck = {
      model: cfg.model,
      dimensions: rows.dims,
      checkedAt: now.toISOString(),
      queries: titles.length,
      lexical,
      vector,
    };
    const file = checkFile(workspace, cfg);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    writeDerivedFile(file, JSON.stringify(check));
    return check;
  } finally {
    opened.close();
  }
}

/** A chunk's heading as a query: without a `Kind:` prefix and entry ids, which BM25 would match for free. */
function titleOf(heading: string | null): string | undefined {
  const t = heading
    ?.replace(/^[A-Za-z]+:\s+/, '')
    .replace(/\b[A-Z]+-\d{8}-[\w-]+\b/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return t && queryTerms(t).length >= 2 ? t : undefined;
}

/** Up to n items taken evenly across the list (the same ones every run). */
function spread<T>(items: T[], n: number): T[] {
  if (items.length <= n) return items;
  return Array.from({ length: n }, (_, i) => items[Math.floor((i * items.length) / n)]!);
}
