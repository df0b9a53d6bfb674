/**
 * The JSON-schema chat calls of the consolidation jobs (wrapup summaries, compound summaries), on the
 * shared OpenAI-compatible client (transport retries and timeouts are the client's). The reply is
 * parsed and validated with the job's zod schema, then checked by the job; every failure — transport,
 * refusal, cut-off, not JSON, wrong shape, a failed check — comes back as a problem string, so the job
 * retries once and then falls back to its rule-based path instead of failing the night's run.
 *
 * Every call is paid from the run's budget, the one its catch-up microsync spent from too: a call
 * whose estimate (prompt and OUTPUT_TOKENS_RESERVE) the budget cannot pay is not made, and the job
 * falls back to its rules, as README's per-run caps say.
 */
import type OpenAI from 'openai';
import { z } from 'zod';
import type { LlmConfig } from '../../config/schema.js';
import {
  affordable,
  estimateMessagesTokens,
  estimateTokens,
  OUTPUT_TOKENS_RESERVE,
  type LlmBudget,
} from '../../extract/llm-budget.js';
import { createClient, resolveApiKey } from '../../extract/llm-client.js';

type Json = { [key: string]: unknown };
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

type Message = { role: 'system' | 'user'; content: string };

/** Strict-mode JSON Schema: every object closed and fully required (our schemas spell optional as nullable). */
function closeSchema(schema: unknown): Json {
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!isObject(node)) return;
    if (node['maximum'] === Number.MAX_SAFE_INTEGER) delete node['maximum'];
    if (node['minimum'] === Number.MIN_SAFE_INTEGER) delete node['minimum'];
    if (isObject(node['properties'])) {
      node['required'] = Object.keys(node['properties']);
      node['additionalProperties'] = false;
    }
    for (const [k, v] of Object.entries(node)) if (k !== 'required' && k !== 'enum') walk(v);
  };
  const copy = structuredClone(schema) as Json;
  delete copy['$schema'];
  walk(copy);
  return copy;
}

/** `unreachable`: the request itself failed (transport, key, endpoint): asking again would fail alike. */
type CallResult<T> =
  { ok: true; value: T; tokens: number } | { ok: false; problem: string; tokens: number; unreachable?: true };

async function jsonCall<T>(
  client: OpenAI,
  cfg: LlmConfig,
  messages: Message[],
  name: string,
  schema: Json,
  validator: z.ZodType<T>,
): Promise<CallResult<T>> {
  let res;
  try {
    res = await client.chat.completions.create({
      model: cfg.model,
      messages,
      response_format: { type: 'json_schema', json_schema: { name, strict: true, schema } },
    });
  } catch (err) {
    return {
      ok: false,
      problem: `LLM endpoint ${cfg.baseURL} failed: ${(err instanceof Error ? err.message : String(err)).split('\n')[0]}`,
      tokens: 0,
      unreachable: true,
    };
  }
  const choice = res.choices[0];
  // An endpoint that reports no usage (some local servers) is charged the estimate.
  const tokens =
    res.usage?.total_tokens ?? estimateMessagesTokens(messages) + estimateTokens(choice?.message.content ?? '');
  if (choice?.message.refusal) return { ok: false, problem: 'the model refused', tokens };
  if (choice?.finish_reason === 'length')
    return { ok: false, problem: 'the reply was cut off at the token limit', tokens };
  const content = choice?.message.content;
  if (!content) return { ok: false, problem: 'the reply was empty', tokens };
  let data: unknown;
  try {
    data = JSON.parse(content.replace(/^\s*```(?:json)?\s*\n([\s\S]*?)\n\s*```\s*$/i, '$1'));
  } catch {
    return { ok: false, problem: 'the reply is not JSON', tokens };
  }
  const parsed = validator.safeParse(data);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    return { ok: false, problem: `the reply does not match the schema: ${issues.join('; ')}`, tokens };
  }
  return { ok: true, value: parsed.data, tokens };
}

export interface AskResult<T> {
  value: T | null;
  rejected: string[];
  /** A call was not made because the run's budget could not pay for it. */
  stoppedByBudget: boolean;
}

export interface Ask<A> {
  cfg: LlmConfig;
  apiKey: string | undefined;
  budget: LlmBudget;
  messages: Message[];
  name: string;
  schema: z.ZodType<A>;
}

/**
 * An answer that passes `check`, asked at most twice (the second time with the reason), within the
 * budget; a request that failed as a request (the client's own retries spent) is not made again.
 */
export async function askChecked<A, T>(
  ask: Ask<A>,
  check: (answer: A) => { value: T } | { problem: string },
): Promise<AskResult<T>> {
  const result: AskResult<T> = { value: null, rejected: [], stoppedByBudget: false };
  const schema = closeSchema(z.toJSONSchema(ask.schema, { target: 'draft-7' }));
  let client: OpenAI | undefined;
  for (let attempt = 0; attempt < 2; attempt++) {
    const last = result.rejected[result.rejected.length - 1];
    const messages =
      last === undefined
        ? ask.messages
        : [
            ...ask.messages,
            {
              role: 'user' as const,
              content: `Your previous reply was rejected: ${last}. Reply again with only the JSON object.`,
            },
          ];
    if (!affordable(ask.budget, estimateMessagesTokens(messages) + OUTPUT_TOKENS_RESERVE)) {
      result.stoppedByBudget = true;
      break;
    }
    client ??= createClient(ask.cfg, resolveApiKey(ask.cfg, ask.apiKey));
    const r = await jsonCall(client, ask.cfg, messages, ask.name, schema, ask.schema);
    ask.budget.calls -= 1;
    ask.budget.tokens -= r.tokens;
    const checked = r.ok ? check(r.value) : { problem: r.problem };
    if ('value' in checked) {
      result.value = checked.value;
      break;
    }
    result.rejected.push(checked.problem);
    if (!r.ok && r.unreachable) break;
  }
  return result;
}

/** What a consolidation run reports (`--json` llm): its calls and tokens, its catch-up's included. */
export interface LlmSpending {
  calls: number;
  tokens: number;
  rejected: string[];
  stoppedByBudget: boolean;
}

/** The warning of a job whose own call the run's budget could not pay for. */
export function budgetSpent(job: string, cfg: LlmConfig, budget: LlmBudget): string {
  const left = `${Math.max(0, budget.calls)} calls and ${Math.max(0, budget.tokens)} tokens`;
  return `${job}: the run's LLM budget cannot pay for the next call, its prompt and ${OUTPUT_TOKENS_RESERVE} tokens for the reply (${left} left of llm.maxCallsPerRun ${cfg.maxCallsPerRun} and llm.maxTokensPerRun ${cfg.maxTokensPerRun}; the catch-up microsync spends from it too)`;
}
