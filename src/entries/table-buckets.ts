/**
 * The entry table's storage (issue 28): 32 bucket files in `.mem/entries/`, a memory file's rows in
 * the bucket its path hashes to, each file's rows stamped with its size, mtime and ctime. The reads
 * (table-store.ts) and the refresh (table-refresh.ts) both go through here.
 *
 * Invariant: rows are used only under the stamp they were made at (stampedAs); a bucket that is
 * missing, damaged or of another layout or field list reads as empty, so a read parses those files
 * itself and a refresh rewrites the bucket, never trusting rows of another build.
 */
import path from 'node:path';
import type { StatedMemoryFile } from './heads-store.js';
import { parsedFile } from './kept-files.js';
import { readDerivedJson } from '../write/atomic.js';
import { isRow, TABLE_FIELDS, type Row } from './table.js';

export const TABLE_DIR = '.mem/entries';
export const BUCKETS = 32;
/** Part of every bucket: a table of another layout or field list is read as empty, and rewritten. */
export const LAYOUT = `3:${TABLE_FIELDS.join(',')}`;

export type Stamped = [size: number, mtimeMs: number, ctimeMs: number, rows: Row[]];
export type Bucket = Record<string, Stamped>;

/** A path's bucket (FNV-1a over UTF-16 code units). */
export function bucketOf(p: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < p.length; i++) h = Math.imul(h ^ p.charCodeAt(i), 0x01000193);
  return (h >>> 0) % BUCKETS;
}

export const bucketFile = (workspace: string, b: number) =>
  path.join(workspace, TABLE_DIR, `b${String(b).padStart(2, '0')}.json`);

/** Bucket `b` as stored, or empty when missing, damaged or of another layout; kept by a long-lived process (kept-files.ts). Never changed by a caller. */
export function readBucket(workspace: string, b: number): Bucket {
  try {
    return parsedFile(bucketFile(workspace, b), parseBucket);
  } catch {
    return {};
  }
}

function parseBucket(text: string): Bucket {
  const v = JSON.parse(text) as { layout?: unknown; files?: unknown };
  if (v?.layout !== LAYOUT || !v.files || typeof v.files !== 'object') return {};
  const out: Bucket = {};
  for (const [p, s] of Object.entries(v.files as Record<string, unknown>)) {
    if (
      Array.isArray(s) &&
      s.length === 4 &&
      [0, 1, 2].every((i) => typeof s[i] === 'number') &&
      Array.isArray(s[3]) &&
      s[3].every(isRow)
    )
      out[p] = s as Stamped;
  }
  return out;
}

export const stampedAs = (had: Stamped, st: StatedMemoryFile) =>
  had[0] === st.size && had[1] === st.mtimeMs && had[2] === st.ctimeMs;

/** stamps.json: every stored file's stamp, written after its bucket, so an update reads only the buckets whose files changed. */
export const STAMPS_FILE = 'stamps.json';

/** Every stored file's stamp, written after its bucket: an update reads only the buckets whose files changed. */
export function readStamps(workspace: string): Record<string, [number, number, number]> {
  const v = readDerivedJson(path.join(workspace, TABLE_DIR, STAMPS_FILE)) as
    { layout?: unknown; stamps?: unknown } | undefined;
  return v?.layout === LAYOUT && v.stamps && typeof v.stamps === 'object'
    ? (v.stamps as Record<string, [number, number, number]>)
    : {};
}
