/** The output of `mem index`, whoever ran it: this process (index-command.ts) or the search server, whose run a client prints (served-index.ts). */
import type { IndexResult } from './update.js';
import { formatIndexSummary } from './present.js';
import type { EmbeddingCounters } from '../embed/embed-index.js';
import type { Output } from '../../terminal/output.js';
import { describeCheck } from '../embed/model-check.js';

export function reportIndexRun(
  out: Output,
  result: IndexResult,
  embeddings: EmbeddingCounters | null,
  seconds: number,
): void {
  for (const w of result.warnings) out.warn(w);
  out.json({ tiers: result.tiers, embeddings, seconds: Number(seconds.toFixed(3)), warnings: result.warnings });
  out.result(formatIndexSummary(result, embeddings, seconds, embeddings?.check && describeCheck(embeddings.check)));
}
