/**
 * A minimal client for an OpenAI-compatible `POST /embeddings` (DESIGN §6), on node:http
 * (embed-http.ts) so the query path stays lean (neither the `openai` package nor fetch's undici is
 * loaded to embed one query, and a one-shot process exits as soon as it has printed). One retry on
 * a 429/5xx or network error (unless told not to); a timeout per call, 30 s unless told a shorter
 * one. Vectors come back L2-normalised, so cosine is a dot product.
 */
import type { EmbeddingConfig } from '../../config/schema.js';
import { postJson, type Reply } from './embed-http.js';

const TIMEOUT_MS = 30_000;

export class EmbeddingError extends Error {}

export function normalise(v: ArrayLike<number>): Float32Array {
  const out = Float32Array.from(v);
  let n = 0;
  for (const x of out) n += x * x;
  n = Math.sqrt(n) || 1;
  for (let i = 0; i < out.length; i++) out[i] = out[i]! / n;
  return out;
}

export interface CallOptions {
  timeoutMs?: number;
  retry?: boolean;
  /** Keep the connection for the next call (index batches); a long-lived process keeps them all. */
  keepAlive?: boolean;
}

function once(cfg: EmbeddingConfig, input: string[], timeoutMs: number, keepAlive: boolean): Promise<Reply> {
  const key = cfg.apiKeyEnv ? process.env[cfg.apiKeyEnv] : process.env.OPENAI_API_KEY;
  const body: Record<string, unknown> = { model: cfg.model, input, encoding_format: 'float' };
  if (cfg.dimensions) body.dimensions = cfg.dimensions;
  const headers = { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) };
  return postJson(`${cfg.baseURL.replace(/\/+$/, '')}/embeddings`, headers, JSON.stringify(body), {
    timeoutMs,
    keepAlive,
  });
}

/** Embeds one batch; throws EmbeddingError with a one-line reason. */
export async function embedBatch(
  cfg: EmbeddingConfig,
  input: string[],
  opts: CallOptions = {},
): Promise<Float32Array[]> {
  const timeoutMs = opts.timeoutMs ?? TIMEOUT_MS;
  let res: Reply | undefined;
  let lastError = '';
  for (let attempt = 0; attempt < (opts.retry === false ? 1 : 2); attempt++) {
    try {
      res = await once(cfg, input, timeoutMs, !!opts.keepAlive);
      if (ok(res) || (res.status < 500 && res.status !== 429)) break;
      lastError = `HTTP ${res.status}`;
    } catch (err) {
      lastError = (err as Error).name === 'TimeoutError' ? `no reply within ${timeoutMs} ms` : (err as Error).message;
      res = undefined;
    }
  }
  if (!res) throw new EmbeddingError(`${cfg.baseURL}: ${lastError}`);
  if (!ok(res)) throw new EmbeddingError(`${cfg.baseURL}: HTTP ${res.status} ${res.text.slice(0, 200)}`);
  const json = parsed(res.text) as { data?: unknown } | null;
  return vectorsOf(json?.data, input.length, cfg.dimensions, cfg.baseURL);
}

const ok = (r: Reply) => r.status >= 200 && r.status < 300;

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * A reply's vectors in input order, normalised, or an EmbeddingError: every slot covered once by an
 * in-range `index`, every value a finite float32, one dimension for all (cfg.dimensions when set),
 * no all-zero vector. A bad reply must never reach the cache, where it would stay for good.
 */
export function vectorsOf(data: unknown, count: number, dimensions: number | undefined, from: string): Float32Array[] {
  const bad = (why: string) => new EmbeddingError(`${from}: bad embedding reply (${why})`);
  if (!Array.isArray(data) || data.length !== count)
    throw new EmbeddingError(
      `${from}: expected ${count} embeddings, got ${Array.isArray(data) ? data.length : 'none'}`,
    );
  const out = new Array<Float32Array>(count);
  let dims = dimensions;
  for (const d of data as { index?: unknown; embedding?: unknown }[]) {
    const i = d?.index;
    if (typeof i !== 'number' || !Number.isInteger(i) || i < 0 || i >= count)
      throw bad(`index ${JSON.stringify(i)} is not 0 to ${count - 1}`);
    if (out[i]) throw bad(`index ${i} given twice`);
    const e = d.embedding;
    if (!Array.isArray(e) || !e.length) throw bad(`embedding ${i} is not a list of numbers`);
    dims ??= e.length;
    if (e.length !== dims) throw bad(`embedding ${i} has ${e.length} dimensions, expected ${dims}`);
    if (!e.every((x) => typeof x === 'number')) throw bad(`embedding ${i} holds a value that is not a number`);
    const v = Float32Array.from(e as number[]);
    let norm = 0;
    for (const x of v) norm += x * x;
    if (!Number.isFinite(norm)) throw bad(`embedding ${i} holds a value that is not finite`);
    if (norm === 0) throw bad(`embedding ${i} is all zeros`);
    out[i] = normalise(v);
  }
  return out;
}
