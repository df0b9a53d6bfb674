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

/** The cache's rows without the key → row map: what a query needs (embed-query.ts). */
export type Rows = Omit<Cache, 'rows'>;

/**
 * The cache, or an empty one and why (`problem`) when its two files are there but do not agree.
 * embed-index writes `.vec` before `.json`, so a crash between the two leaves a `.vec` longer than
 * the keys: its extra rows are ignored (rows only ever append). Fewer rows than keys is damage.
 */
export function loadCache(workspace: string, cfg: EmbeddingConfig): { cache: Cache; problem: string | null } {
  const { rows, problem } = loadRows(workspace, cfg);
  return { cache: { ...rows, rows: new Map(rows.keys.map((k, i) => [k, i])) }, problem };
}

/** As loadCache, without the key map; the vectors are a view of the file's bytes when aligned (no 4 × rows × dims copy). */
export function loadRows(workspace: string, cfg: EmbeddingConfig): { rows: Rows; problem: string | null } {
  const p = cachePaths(workspace, cfg);
  const empty: Rows = { dims: 0, keys: [], vectors: new Float32Array(0) };
  if (!fs.existsSync(p.json) && !fs.existsSync(p.vec)) return { rows: empty, problem: null };
  try {
    const meta = JSON.parse(fs.readFileSync(p.json, 'utf8')) as { dims?: unknown; keys?: unknown };
    const { dims, keys } = meta;
    if (typeof dims !== 'number' || !Number.isInteger(dims) || dims < 1 || !Array.isArray(keys) || !keys.every((k) => typeof k === 'string')) {
      throw new Error('.json is not a cache index');
    }
    const buf = fs.readFileSync(p.vec);
    const bytes = keys.length * dims * 4;
    if (buf.byteLength < bytes) throw new Error(`.vec has ${Math.floor(buf.byteLength / 4 / dims)} of the ${keys.length} rows .json lists`);
    const vectors = buf.byteOffset % 4 === 0
      ? new Float32Array(buf.buffer, buf.byteOffset, bytes / 4)
      : new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + bytes));
    return { rows: { dims, keys: keys as string[], vectors }, problem: null };
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    return { rows: empty, problem: e.code === 'ENOENT' ? `${path.extname(e.path ?? '')} is missing` : e instanceof SyntaxError ? '.json is not JSON' : e.message };
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
  const pairs = loadVmapPairs(workspace, tier, epoch, space);
  const out = new Map<number, number>();
  for (let i = 0; i + 1 < pairs.length; i += 2) out.set(pairs[i]!, pairs[i + 1]!);
  return out;
}

/** The tier's doc, row, doc, row, ... pairs, or none when the map is missing, unreadable or of another epoch or space. */
export function loadVmapPairs(workspace: string, tier: Tier, epoch: string, space: string): number[] {
  try {
    const m = JSON.parse(fs.readFileSync(path.join(workspace, vmapFile(tier)), 'utf8')) as VectorMap;
    if (m.epoch !== epoch || m.space !== space || !Array.isArray(m.pairs)) return [];
    return m.pairs;
  } catch {
    return [];
  }
}
