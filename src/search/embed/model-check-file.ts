/**
 * Where the embedding model check's figures are kept: `.mem/embeddings/checks/<space>.json`, apart
 * from the caches (`<space>.json`, `.vec`) so that nothing reading those finds it; counts only, no
 * text. `mem status` reads it; embed-check.ts writes it.
 */
import path from 'node:path';
import type { EmbeddingConfig } from '../../config/schema.js';
import { readDerivedJson } from '../../write/atomic.js';
import { EMBED_DIR, spaceOf } from './embed-store.js';
import type { ModelCheck } from './model-check.js';

export const checkFile = (workspace: string, cfg: EmbeddingConfig) =>
  path.join(workspace, EMBED_DIR, 'checks', `${spaceOf(cfg)}.json`);

/** The stored check of the configured model, when there is one. */
export function readModelCheck(workspace: string, cfg: EmbeddingConfig): ModelCheck | undefined {
  const c = readDerivedJson(checkFile(workspace, cfg)) as ModelCheck | undefined;
  return c &&
    c.model === cfg.model &&
    Number.isInteger(c.queries) &&
    Number.isInteger(c.lexical) &&
    Number.isInteger(c.vector)
    ? c
    : undefined;
}
