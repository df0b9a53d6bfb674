/**
 * One chat completion against an OpenAI-compatible endpoint, and the reading of its reply. The
 * official client owns transport retries (5xx, 429, 408, connection errors and timeouts, with
 * backoff and Retry-After); this module owns the meaning: a transport failure that survives those
 * retries becomes one MemError('LLM') line naming the endpoint, a bad reply becomes a typed result.
 *
 * Everything the client would otherwise read from the environment (OPENAI_API_KEY, OPENAI_BASE_URL,
 * OPENAI_ORG_ID, OPENAI_PROJECT_ID) is passed explicitly, so a key meant for one provider is never
 * sent to the endpoint configured in mem.config.json.
 */
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import type { LlmConfig } from '../config/schema.js';
import { MemError } from '../core/errors.js';
import type { ChatMessage } from './llm-prompt.js';
import { llmOutputSchema, responseFormat, type LlmOutput } from './llm-schema.js';

/** Local endpoints (Ollama, llama.cpp) need no key, but the client refuses to start without one. */
const NO_KEY = 'memfold-no-key';

export function resolveApiKey(cfg: LlmConfig, explicit: string | undefined): string {
  if (explicit) return explicit;
  if (!cfg.apiKeyEnv) return NO_KEY;
  const key = process.env[cfg.apiKeyEnv];
  if (!key) throw new MemError('LLM', `llm.apiKeyEnv is "${cfg.apiKeyEnv}", but that environment variable is not set`);
  return key;
}

export function createClient(cfg: LlmConfig, apiKey: string): OpenAI {
  return new OpenAI({
    baseURL: cfg.baseURL,
    apiKey,
    organization: null,
    project: null,
    timeout: cfg.timeoutMs,
    maxRetries: cfg.maxRetries,
  });
}

export interface Reply {
  content: string | null;
  finishReason: string | null;
  refusal: string | null;
  /** usage.total_tokens when the endpoint reports it. */
  totalTokens: number | undefined;
}

function firstLine(text: string, max = 200): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

function describeFailure(err: unknown, cfg: LlmConfig): string {
  const where = `LLM endpoint ${cfg.baseURL} (model ${cfg.model})`;
  const tries = `${cfg.maxRetries + 1} attempt${cfg.maxRetries === 0 ? '' : 's'}`;
  if (err instanceof APIConnectionTimeoutError) return `${where} timed out after ${cfg.timeoutMs} ms (${tries})`;
  if (err instanceof APIConnectionError) {
    const cause = err.cause instanceof Error ? `: ${firstLine(err.cause.message)}` : '';
    return `${where} could not be reached (${tries})${cause}`;
  }
  if (err instanceof APIError) return `${where} answered HTTP ${err.status ?? '?'}: ${firstLine(err.message)}`;
  return `${where} failed: ${firstLine(err instanceof Error ? err.message : String(err))}`;
}

/**
 * 4xx statuses about the endpoint or the account, not about one request: a wrong or unauthorised key
 * (401, 403), a wrong baseURL or model (404), a timeout or conflict the client has already retried
 * (408, 409), a rate limit (429). Every request would meet them, so they stop the run.
 */
const NOT_ABOUT_THE_REQUEST = new Set([401, 403, 404, 408, 409, 429]);

/**
 * Whether a failure of `complete` is the endpoint refusing that one request for what it holds (HTTP
 * 400 "context length exceeded", 413, 422): the same request would be refused again, another may pass.
 */
export function refusedRequest(err: unknown): boolean {
  const cause = err instanceof MemError ? err.cause : err;
  if (!(cause instanceof APIError) || cause.status === undefined) return false;
  return cause.status >= 400 && cause.status < 500 && !NOT_ABOUT_THE_REQUEST.has(cause.status);
}

export async function complete(client: OpenAI, cfg: LlmConfig, messages: readonly ChatMessage[]): Promise<Reply> {
  try {
    const res = await client.chat.completions.create({
      model: cfg.model,
      messages: [...messages],
      response_format: responseFormat(),
    });
    const choice = res.choices[0];
    return {
      content: choice?.message.content ?? null,
      finishReason: choice?.finish_reason ?? null,
      refusal: choice?.message.refusal ?? null,
      totalTokens: typeof res.usage?.total_tokens === 'number' ? res.usage.total_tokens : undefined,
    };
  } catch (err) {
    throw new MemError('LLM', describeFailure(err, cfg), { cause: err });
  }
}

export type ParsedReply = { ok: true; output: LlmOutput } | { ok: false; problem: string };

/** Endpoints without strict decoding sometimes wrap the JSON in a Markdown code fence. */
function unfence(text: string): string {
  const m = /^\s*```(?:json)?\s*\n([\s\S]*?)\n\s*```\s*$/i.exec(text);
  return m?.[1] ?? text;
}

export function parseReply(reply: Reply): ParsedReply {
  if (reply.refusal) return { ok: false, problem: `the model refused: ${firstLine(reply.refusal)}` };
  if (reply.finishReason === 'length') return { ok: false, problem: 'the reply was cut off at the token limit' };
  if (!reply.content) return { ok: false, problem: 'the reply was empty' };
  let data: unknown;
  try {
    data = JSON.parse(unfence(reply.content));
  } catch (err) {
    return { ok: false, problem: `the reply is not JSON (${firstLine((err as Error).message, 80)})` };
  }
  const result = llmOutputSchema.safeParse(data);
  if (result.success) return { ok: true, output: result.data };
  const issues = result.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
  const more = result.error.issues.length > 3 ? ` (+${result.error.issues.length - 3} more)` : '';
  return { ok: false, problem: `the reply does not match the schema: ${issues.join('; ')}${more}` };
}
