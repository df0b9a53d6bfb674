/**
 * Index maintenance for the jobs that write Markdown (microsync, remember, wrapup, compound): after
 * their append they call updateIndexAfterWrite, which brings the index up to date incrementally
 * (lexical always; embeddings only when configured) and never fails the job: any problem comes back
 * as a one-line warning, and the next `mem index`, `mem watch` or search overlay catches up.
 */
import type { LoadedConfig } from '../config/load.js';
import { describeError } from '../core/errors.js';
import { embedTiers } from './embed-index.js';
import { updateIndex, type IndexResult } from './indexer.js';
import type { EmbeddingCounters } from './present.js';

export interface IndexRun {
  result: IndexResult;
  embeddings: EmbeddingCounters | null;
  seconds: number;
}

/** `mem index` and the watcher: lexical update, then embeddings when configured, under the index lock. */
export async function runIndex(workspace: string, loaded: LoadedConfig, opts: { rebuild?: boolean; onProgress?: (done: number, total: number) => void } = {}): Promise<IndexRun> {
  const started = performance.now();
  let embeddings: EmbeddingCounters | null = null;
  const emb = loaded.config.embedding;
  const result = await updateIndex(workspace, loaded, {
    ...opts,
    after: emb ? async (writer, states) => void (embeddings = await embedTiers(workspace, writer, emb, states)) : undefined,
  });
  if (embeddings && (embeddings as EmbeddingCounters).failed) {
    result.warnings.push(`embeddings: ${(embeddings as EmbeddingCounters).failed}; search uses lexical ranking for chunks without vectors`);
  }
  return { result, embeddings, seconds: (performance.now() - started) / 1000 };
}

export async function updateIndexAfterWrite(workspace: string, loaded: LoadedConfig): Promise<{ warning?: string; run?: IndexRun }> {
  try {
    const run = await runIndex(workspace, loaded);
    return run.result.warnings.length ? { run, warning: `index: ${run.result.warnings.join('; ')}` } : { run };
  } catch (err) {
    return { warning: `index not updated (${describeError(err)}); run "mem index"` };
  }
}
