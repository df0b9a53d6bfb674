/**
 * Embedding storage in `.mem/` (DESIGN §6). The cache is one space per (model, dimensions):
 * `.mem/embeddings/<space>.json` lists the sha256(model, dims, text) key of each row and
 * `<space>.vec` holds the rows as little-endian float32, L2-normalised — an unchanged chunk is never
 * embedded twice, even after a rename or a rebuild. Each tier has `.mem/index/<tier>.vmap.json`
 * mapping its live doc ids to cache rows, valid only for the tier epoch and space it names.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { EmbeddingConfig } from '../config/schema.js';
import { INDEX_DIR } from './tier-file.js';
import type { Tier } from './types.js';

export const EMBED_DIR = '.mem/embeddings';

export function spaceOf(cfg: EmbeddingConfig): string {
  return createHash('sha256').update(`${cfg.model}\0${cfg.dimensions ?? 'default'}`).digest('hex').slice(0, 16);
}

export function textKey(cfg: EmbeddingConfig, text: string): string {
  return createHash('sha256').update(`${cfg.model}\0${cfg.dimensions ?? 'default'}\0${text}`).digest('hex');
}

export interface Cache {
  dims: number;
  keys: string[];
  rows: Map<string, number>;
  /** Row-major float32 vectors, `dims` per row. */
  vectors: Float32Array;
}

export function cachePaths(workspace: string, cfg: EmbeddingConfig): { json: string; vec: string } {
  const base = path.join(workspace, EMBED_DIR, spaceOf(cfg));
  return { json: `${base}.json`, vec: `${base}.vec` };
}

export function loadCache(workspace: string, cfg: EmbeddingConfig): Cache {
  const p = cachePaths(workspace, cfg);
  try {
    const meta = JSON.parse(fs.readFileSync(p.json, 'utf8')) as { dims: number; keys: string[] };
    const buf = fs.readFileSync(p.vec);
    const vectors = new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
    if (!meta.dims || vectors.length !== meta.keys.length * meta.dims) throw new Error('size mismatch');
    return { dims: meta.dims, keys: meta.keys, rows: new Map(meta.keys.map((k, i) => [k, i])), vectors };
  } catch {
    return { dims: 0, keys: [], rows: new Map(), vectors: new Float32Array(0) };
  }
}

export function appendRows(cache: Cache, keys: string[], vecs: Float32Array[]): void {
  if (!vecs.length) return;
  if (!cache.dims) cache.dims = vecs[0]!.length;
  const grown = new Float32Array(cache.vectors.length + vecs.length * cache.dims);
  grown.set(cache.vectors);
  vecs.forEach((v, i) => {
    if (v.length !== cache.dims) throw new Error(`embedding has ${v.length} dimensions, the cache ${cache.dims}`);
    grown.set(v, cache.vectors.length + i * cache.dims);
    cache.rows.set(keys[i]!, cache.keys.length + i);
  });
  cache.keys.push(...keys);
  cache.vectors = grown;
}

export interface VectorMap {
  epoch: string;
  space: string;
  /** doc, row, doc, row, ... */
  pairs: number[];
}

export function vmapFile(tier: Tier): string {
  return `${INDEX_DIR}/${tier}.vmap.json`;
}

export function loadVmap(workspace: string, tier: Tier, epoch: string, space: string): Map<number, number> {
  try {
    const m = JSON.parse(fs.readFileSync(path.join(workspace, vmapFile(tier)), 'utf8')) as VectorMap;
    if (m.epoch !== epoch || m.space !== space) return new Map();
    const out = new Map<number, number>();
    for (let i = 0; i + 1 < m.pairs.length; i += 2) out.set(m.pairs[i]!, m.pairs[i + 1]!);
    return out;
  } catch {
    return new Map();
  }
}
