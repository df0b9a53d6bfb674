/**
 * The LLM extractor of microsync (DESIGN §4, §5, §7): one session's redacted turns → Candidates,
 * batch by batch, within a per-run budget of calls and tokens.
 *
 * Invariants:
 * - `processedThroughTurn` only ever names the last turn of a batch that was fully tried (answered,
 *   answered invalidly twice and handed back in `unanswered`, or refused and handed back in `refused`), so a cursor built
 *   on it never skips unread turns and a budget stop or a thrown MemError leaves the rest for the next run.
 * - A request the endpoint refuses for what it holds (an HTTP 4xx such as "context length exceeded")
 *   would be refused on every run: its batch is handed back for another extractor instead of failing
 *   the run. Failures every request would meet (key, endpoint, model, rate limit, network) still throw.
 * - The budget is checked before every call, retries included, and spent from `usage.total_tokens`
 *   when the endpoint reports it: a run never starts a call it cannot pay for.
 * - A dry run sends nothing and needs no key; it walks the same batches and spends the estimates
 *   from the same budget, so its numbers, stop and progress are those of the real run (assuming
 *   every reply is valid at the first try).
 */
import type OpenAI from 'openai';
import type { LlmConfig } from '../config/schema.js';
import type { Turn } from '../transcripts/types.js';
import type { Candidate } from './types.js';
import { complete, createClient, parseReply, refusedRequest, resolveApiKey, type Reply } from './llm-client.js';
import { toCandidates } from './llm-map.js';
import {
  affordable,
  estimateMessagesTokens,
  estimateTokens,
  OUTPUT_TOKENS_RESERVE,
  type LlmBudget,
} from './llm-budget.js';
import { buildMessages, isTrustedTurn, type ChatMessage } from './llm-prompt.js';

/** Turns of the previous batch shown (not citable) so a confirmation opening a batch is understood. */
export const CONTEXT_TURNS = 2;

export interface ExtractWithLlmOptions {
  /** Overrides the key read from the environment variable named by `cfg.apiKeyEnv`. */
  apiKey?: string;
  /** Turns of the same session read before `turns`, already redacted: their tail is sent as context, never cited. */
  context?: readonly Turn[];
  budget: LlmBudget;
  dryRun?: boolean;
  /** Batches done (tried, skipped or empty) of all batches. */
  onProgress?: (done: number, total: number) => void;
  warn: (msg: string) => void;
}

export interface ExtractWithLlmResult {
  candidates: Candidate[];
  /** Calls made (retries of invalid replies included) and tokens spent in this invocation. */
  calls: number;
  tokens: number;
  /** Index of the last turn fully processed, for resumable cursors; null when none was. */
  processedThroughTurn: number | null;
  stoppedByBudget: boolean;
  /** Dry run only: calls and tokens the real run would spend within the budget (no retries counted). */
  estimated?: { calls: number; tokens: number };
  /** Batches the endpoint refused for what they hold, with its answer; no candidate came from them. */
  refused: RefusedBatch[];
  /** Batches answered invalidly twice (warned about); no candidate came from them. */
  unanswered: Batch[];
}

export interface Batch {
  turns: Turn[];
  context: Turn[];
}

export interface RefusedBatch extends Batch {
  problem: string;
}

/** Consecutive slices of `perCall` turns, each with the turns just before it as context. */
export function planBatches(turns: readonly Turn[], perCall: number, before: readonly Turn[] = []): Batch[] {
  const byIndex = (a: Turn, b: Turn) => a.index - b.index;
  const sorted = [...turns].sort(byIndex);
  const all = [
    ...[...before]
      .sort(byIndex)
      .filter((t) => t.index < (sorted[0]?.index ?? 0))
      .slice(-CONTEXT_TURNS),
    ...sorted,
  ];
  const offset = all.length - sorted.length;
  const size = Math.max(1, Math.floor(perCall));
  const batches: Batch[] = [];
  for (let at = 0; at < sorted.length; at += size) {
    const start = offset + at;
    batches.push({
      turns: all.slice(start, start + size),
      context: all.slice(Math.max(0, start - CONTEXT_TURNS), start),
    });
  }
  return batches;
}

const RETRY_NOTE = (problem: string): ChatMessage => ({
  role: 'user',
  content: `Your previous reply was rejected: ${problem}. Reply again with only the JSON object that matches the schema.`,
});

function assertOneSession(turns: readonly Turn[]): void {
  const first = turns[0];
  const other = turns.find((t) => t.sessionPath !== first?.sessionPath || t.sessionId !== first?.sessionId);
  if (first && other) {
    throw new Error(`extractWithLlm takes one session's turns; got ${first.sessionPath} and ${other.sessionPath}`);
  }
}

function spend(result: ExtractWithLlmResult, budget: LlmBudget, tokens: number): void {
  result.calls += 1;
  result.tokens += tokens;
  budget.calls -= 1;
  budget.tokens -= tokens;
}

type Step = 'done' | 'budget';

/** One batch for real: a call, and one more when the reply is invalid; then candidates or a warning. */
async function runBatch(
  client: OpenAI,
  cfg: LlmConfig,
  batch: Batch,
  opts: ExtractWithLlmOptions,
  result: ExtractWithLlmResult,
): Promise<Step> {
  const base = buildMessages(batch.turns, batch.context);
  const problems: string[] = [];
  for (let attempt = 0; attempt < 2; attempt++) {
    const last = problems[problems.length - 1];
    const messages = last === undefined ? base : [...base, RETRY_NOTE(last)];
    const estimate = estimateMessagesTokens(messages) + OUTPUT_TOKENS_RESERVE;
    if (!affordable(opts.budget, estimate)) return 'budget';
    let reply: Reply;
    try {
      reply = await complete(client, cfg, messages);
    } catch (err) {
      if (!refusedRequest(err)) throw err;
      // A refused request was made but read nothing: it costs a call and no tokens.
      spend(result, opts.budget, 0);
      result.refused.push({ ...batch, problem: (err as Error).message });
      return 'done';
    }
    spend(
      result,
      opts.budget,
      reply.totalTokens ?? estimate - OUTPUT_TOKENS_RESERVE + estimateTokens(reply.content ?? ''),
    );
    const parsed = parseReply(reply);
    if (parsed.ok) {
      result.candidates.push(...toCandidates(parsed.output.entries, batch.turns, batch.context, opts.warn));
      return 'done';
    }
    problems.push(parsed.problem);
  }
  const range = `${batch.turns[0]?.index}-${batch.turns[batch.turns.length - 1]?.index}`;
  opts.warn(
    `no valid LLM answer for turns ${range} of ${batch.turns[0]?.sessionPath} (${problems.join('; then ')}): the rule-based extractor read them instead`,
  );
  result.unanswered.push(batch);
  return 'done';
}

/** One batch in a dry run: spend the estimate of its first call, as the real run would. */
function priceBatch(batch: Batch, opts: ExtractWithLlmOptions, result: ExtractWithLlmResult): Step {
  const estimate = estimateMessagesTokens(buildMessages(batch.turns, batch.context)) + OUTPUT_TOKENS_RESERVE;
  if (!affordable(opts.budget, estimate)) return 'budget';
  const estimated = (result.estimated ??= { calls: 0, tokens: 0 });
  estimated.calls += 1;
  estimated.tokens += estimate;
  opts.budget.calls -= 1;
  opts.budget.tokens -= estimate;
  return 'done';
}

export async function extractWithLlm(
  turns: readonly Turn[],
  cfg: LlmConfig,
  opts: ExtractWithLlmOptions,
): Promise<ExtractWithLlmResult> {
  assertOneSession(turns);
  const batches = planBatches(turns, cfg.turnsPerCall, opts.context);
  const result: ExtractWithLlmResult = {
    candidates: [],
    calls: 0,
    tokens: 0,
    processedThroughTurn: null,
    stoppedByBudget: false,
    refused: [],
    unanswered: [],
  };
  if (opts.dryRun) result.estimated = { calls: 0, tokens: 0 };
  // A batch with nothing a person or the main agent said cannot yield an entry: no call for it.
  const worthACall = (b: Batch) => b.turns.some(isTrustedTurn);
  const client =
    !opts.dryRun && batches.some(worthACall) ? createClient(cfg, resolveApiKey(cfg, opts.apiKey)) : undefined;
  for (const [i, batch] of batches.entries()) {
    if (worthACall(batch)) {
      const step = client ? await runBatch(client, cfg, batch, opts, result) : priceBatch(batch, opts, result);
      if (step === 'budget') return { ...result, stoppedByBudget: true };
    }
    result.processedThroughTurn = batch.turns[batch.turns.length - 1]?.index ?? result.processedThroughTurn;
    opts.onProgress?.(i + 1, batches.length);
  }
  return result;
}
