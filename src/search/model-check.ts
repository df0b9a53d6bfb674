/**
 * What the embedding model check found (embed-check.ts runs it at `mem index`), as `mem index` and
 * `mem status` show it: the stored figures of the configured model and the one rule that calls a
 * model weak. Apart from the check itself so that status and the index summary load no search code.
 */
import path from 'node:path';
import type { EmbeddingConfig } from '../config/schema.js';
import { readDerivedJson } from '../write/atomic.js';
import { EMBED_DIR, spaceOf } from './embed-store.js';

export const CHECK_QUERIES = 32;
export const CHECK_TOP = 5;

export interface ModelCheck {
  model: string;
  dimensions: number;
  checkedAt: string;
  queries: number;
  /** Entries found in the top CHECK_TOP by their title: BM25 alone, the model's vectors alone. */
  lexical: number;
  vector: number;
}

/** Apart from the caches (`<space>.json`, `.vec`) so that nothing reading those finds it; counts only, no text. */
export const checkFile = (workspace: string, cfg: EmbeddingConfig) => path.join(workspace, EMBED_DIR, 'checks', `${spaceOf(cfg)}.json`);

/** The stored check of the configured model, when there is one. */
export function readModelCheck(workspace: string, cfg: EmbeddingConfig): ModelCheck | undefined {
  const c = readDerivedJson(checkFile(workspace, cfg)) as ModelCheck | undefined;
  return c && c.model === cfg.model && Number.isInteger(c.queries) && Number.isInteger(c.lexical) && Number.isInteger(c.vector) ? c : undefined;
}

/** True when the model's vectors find fewer than half of the entries BM25 finds by their title. */
export function ranksWorse(c: ModelCheck): boolean {
  return c.vector * 2 < c.lexical;
}

export function describeCheck(c: ModelCheck): string {
  return `its vectors find ${c.vector} of ${c.queries} entries by their title, BM25 ${c.lexical} (top ${CHECK_TOP})`;
}

/** The warning `mem index` and `mem status` give for a model that ranks worse than lexical search. */
export function weakModelWarning(c: ModelCheck): string {
  return `embedding model "${c.model}" ranks worse than lexical search alone: ${describeCheck(c)}; hybrid search leans on BM25 for it, check embedding.model and embedding.dimensions`;
}
