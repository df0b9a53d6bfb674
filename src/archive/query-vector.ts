/**
 * The query's embedding for `mem search --archive` and MCP `memory_evidence`, when the archive is
 * embedded (`archive.embed` with an `embedding` provider). Never fatal: a provider failure comes back
 * as a warning and the search ranks by BM25 alone.
 */
import type { Config } from '../config/schema.js';

export async function archiveQueryVector(
  config: Config,
  query: string,
  lexicalOnly = false,
): Promise<{ vector?: Float32Array; warning?: string }> {
  if (!config.archive.embed || !config.embedding || lexicalOnly) return {};
  try {
    const [{ embedBatch }, { redactSecrets }] = await Promise.all([
      import('../search/embed/embed-client.js'),
      import('../secrets/secrets.js'),
    ]);
    // Someone is waiting, and nothing secret is sent: as for the Markdown tiers (search/embed-query.ts).
    const text = redactSecrets(query).text.slice(0, 8000);
    return {
      vector: (
        await embedBatch(config.embedding, [text], { timeoutMs: config.embedding.interactiveTimeoutMs, retry: false })
      )[0]!,
    };
  } catch (err) {
    return { warning: `embeddings unavailable (${(err as Error).message}); archive results ranked lexically only` };
  }
}
