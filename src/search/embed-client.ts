/**
 * A minimal client for an OpenAI-compatible `POST /embeddings` (DESIGN §6), on fetch so the query
 * path stays lean (the `openai` package is not loaded to embed one query). One retry on a 429/5xx or
 * network error; a timeout per call. Vectors come back L2-normalised, so cosine is a dot product.
 */
import type { EmbeddingConfig } from '../config/schema.js';

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

async function once(cfg: EmbeddingConfig, input: string[]): Promise<Response> {
  const key = cfg.apiKeyEnv ? process.env[cfg.apiKeyEnv] : process.env.OPENAI_API_KEY;
  const body: Record<string, unknown> = { model: cfg.model, input, encoding_format: 'float' };
  if (cfg.dimensions) body.dimensions = cfg.dimensions;
  return fetch(`${cfg.baseURL.replace(/\/+$/, '')}/embeddings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
}

/** Embeds one batch; throws EmbeddingError with a one-line reason. */
export async function embedBatch(cfg: EmbeddingConfig, input: string[]): Promise<Float32Array[]> {
  let res: Response | undefined;
  let lastError = '';
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      res = await once(cfg, input);
      if (res.ok || (res.status < 500 && res.status !== 429)) break;
      lastError = `HTTP ${res.status}`;
    } catch (err) {
      lastError = (err as Error).message;
      res = undefined;
    }
  }
  if (!res) throw new EmbeddingError(`${cfg.baseURL}: ${lastError}`);
  if (!res.ok) throw new EmbeddingError(`${cfg.baseURL}: HTTP ${res.status} ${(await res.text().catch(() => '')).slice(0, 200)}`);
  const json = (await res.json().catch(() => null)) as { data?: { index: number; embedding: number[] }[] } | null;
  const data = json?.data;
  if (!Array.isArray(data) || data.length !== input.length) throw new EmbeddingError(`${cfg.baseURL}: expected ${input.length} embeddings, got ${Array.isArray(data) ? data.length : 'none'}`);
  const out = new Array<Float32Array>(input.length);
  for (const d of data) {
    if (!Array.isArray(d.embedding) || typeof d.index !== 'number') throw new EmbeddingError(`${cfg.baseURL}: malformed embedding in reply`);
    out[d.index] = normalise(d.embedding);
  }
  return out;
}
