/**
 * One JSON-schema chat call for the consolidation jobs (wrapup summaries, compound summaries), on the
 * shared OpenAI-compatible client (transport retries and timeouts are the client's). The reply is
 * parsed and validated with the job's zod schema; every failure — transport, refusal, cut-off, not
 * JSON, wrong shape — comes back as a problem string, so the caller can retry once and then fall
 * back to its rule-based path instead of failing the night's run.
 */
import type OpenAI from 'openai';
import type { z } from 'zod';
import type { LlmConfig } from '../../config/schema.js';

type Json = { [key: string]: unknown };
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Strict-mode JSON Schema: every object closed and fully required (our schemas spell optional as nullable). */
export function closeSchema(schema: unknown): Json {
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

export type CallResult<T> = { ok: true; value: T; tokens: number } | { ok: false; problem: string; tokens: number };

export async function jsonCall<T>(client: OpenAI, cfg: LlmConfig, messages: Array<{ role: 'system' | 'user'; content: string }>, name: string, schema: Json, validator: z.ZodType<T>): Promise<CallResult<T>> {
  let res;
  try {
    res = await client.chat.completions.create({
      model: cfg.model,
      messages,
      response_format: { type: 'json_schema', json_schema: { name, strict: true, schema } },
    });
  } catch (err) {
    return { ok: false, problem: `LLM endpoint ${cfg.baseURL} failed: ${(err instanceof Error ? err.message : String(err)).split('\n')[0]}`, tokens: 0 };
  }
  const tokens = res.usage?.total_tokens ?? 0;
  const choice = res.choices[0];
  if (choice?.message.refusal) return { ok: false, problem: 'the model refused', tokens };
  if (choice?.finish_reason === 'length') return { ok: false, problem: 'the reply was cut off at the token limit', tokens };
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
