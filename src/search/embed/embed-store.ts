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
import type { EmbeddingConfig } from '../../config/schema.js';
import { INDEX_DIR } from '../index/tier-file.js';
import type { Tier } from '../text/types.js';

export const EMBED_DIR = '.mem/embeddings';

export function spaceOf(cfg: EmbeddingConfig): string {
  return createHash('sha256')
    .update(`${cfg.model}\0${cfg.dimensions ?? 'default'}`)
    .digest('hex')
    .slice(0, 16);
}

export function textKey(cfg: EmbeddingConfig, text: string): string {
  return createHash('sha256')
    .update(`${cfg.model}\0${cfg.dimensions ?? 'default'}\0${text}`)
    .digest('hex');
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
    if (
      typeof dims !== 'number' ||
      !Number.isInteger(dims) ||
      dims < 1 ||
      !Array.isArray(keys) ||
      !keys.every((k) => typeof k === 'string')
    ) {
      throw new Error('.json is not a cache index');
    }
    const buf = fs.readFileSync(p.vec);
    const bytes = keys.length * dims * 4;
    if (buf.byteLength < bytes)
      throw new Error(`.vec has ${Math.floor(buf.byteLength / 4 / dims)} of the ${keys.length} rows .json lists`);
    return { rows: { dims, keys: keys as string[], vectors: floats(buf, bytes) }, problem: null };
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    return {
      rows: empty,
      problem:
        e.code === 'ENOENT'
          ? `${path.extname(e.path ?? '')} is missing`
          : e instanceof SyntaxError
            ? '.json is not JSON'
            : e.message,
    };
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
  /** The cache's dimensions and row count when the map was written (absent in maps of before 0.1): a query reads `.vec` without the key list. */
  dims?: number;
  rows?: number;
}

/** What a query needs of the cache: `count` rows of `dims` floats (no keys). */
export type QueryRows = { dims: number; count: number; vectors: Float32Array };

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
  return loadVmapFile(workspace, tier, epoch, space)?.pairs ?? [];
}

/** The tier's vector map as written, or undefined when it is missing, unreadable or of another epoch or space. */
export function loadVmapFile(workspace: string, tier: Tier, epoch: string, space: string): VectorMap | undefined {
  try {
    const m = JSON.parse(fs.readFileSync(path.join(workspace, vmapFile(tier)), 'utf8')) as VectorMap;
    return m.epoch === epoch && m.space === space && Array.isArray(m.pairs) ? m : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The cache's rows for a query. With the dimensions and row count a vector map recorded, only `.vec`
 * is read (parsing the key list, 1.2 MB for 18,500 chunks, cost 7-18 ms of a cold hybrid search);
 * rows only ever append, so the first `rows` rows are those the map names. A `.vec` shorter than that
 * (damaged) gives no rows, as loadRows gives none for a cache whose files disagree.
 */
export function loadQueryRows(
  workspace: string,
  cfg: EmbeddingConfig,
  map: Pick<VectorMap, 'dims' | 'rows'>,
): QueryRows {
  const { dims, rows } = map;
  if (!(Number.isInteger(dims) && dims! > 0 && Number.isInteger(rows) && rows! >= 0)) {
    const r = loadRows(workspace, cfg).rows;
    return { dims: r.dims, count: r.keys.length, vectors: r.vectors };
  }
  try {
    const buf = fs.readFileSync(cachePaths(workspace, cfg).vec);
    const bytes = rows! * dims! * 4;
    if (buf.byteLength < bytes) return { dims: 0, count: 0, vectors: new Float32Array(0) };
    return { dims: dims!, count: rows!, vectors: floats(buf, bytes) };
  } catch {
    return { dims: 0, count: 0, vectors: new Float32Array(0) };
  }
}

/** The first `bytes` of buf as float32: a view of its bytes when aligned (no 4 × rows × dims copy). */
function floats(buf: Buffer, bytes: number): Float32Array {
  return buf.byteOffset % 4 === 0
    ? new Float32Array(buf.buffer, buf.byteOffset, bytes / 4)
    : new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + bytes));
}
