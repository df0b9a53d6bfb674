/**
 * The query's embedding for `mem search --archive` and MCP `memory_evidence`, when the archive is
 * embedded (`archive.embed` with an `embedding` provider). Never fatal: a provider failure comes back
 * as a warning and the search ranks by BM25 alone.
 */
import type { Config } from '../config/schema.js';

export async function archiveQueryVector(config: Config, query: string, lexicalOnly = false): Promise<{ vector?: Float32Array; warning?: string }> {
  if (!config.archive.embed || !config.embedding || lexicalOnly) return {};
  try {
    const { embedBatch } = await import('../search/embed-client.js');
    return { vector: (await embedBatch(config.embedding, [query.slice(0, 8000)]))[0]! };
  } catch (err) {
    return { warning: `embeddings unavailable (${(err as Error).message}); archive results ranked lexically only` };
  }
}
