/**
 * The in-force heads (heads.ts) in `.mem/entries/heads/`, read side: `meta.json` is stamped with a
 * digest of every memory file's size, mtime and ctime (heads-files.ts) and of the scope mapping they
 * were built with, and names the generation of every other file there (gen-write.ts). Built by the
 * entry table's refresh (heads-refresh.ts), which every job that writes Markdown, `mem index`, the
 * watcher and the daemon run; read by `mem context` without a query, `mem get` and `mem trace`.
 *
 * Invariant: heads are used only when they describe memory/ exactly as it is now: a read lists and
 * stats memory/ and compares the meta's digest, and takes a scope file or bucket only when its
 * generation is the one the meta names, so a hand edit, a pull, a deleted `.mem/` or a file of
 * another refresh sends the read to the whole table (table-store.ts readEntryTable), which answers
 * the same, only slower. A read never writes them (DESIGN invariant 4).
 */
import path from 'node:path';
import { readDerivedJson as readJson } from '../write/atomic.js';
import { readGenFile } from './stamped-buckets.js';
import { filesDigestOf, memoryFilesDigest, statedMemoryFiles, type StatedMemoryFile } from './heads-files.js';
import { bucketOfText, stampOfTexts } from './heads-hash.js';
import type { HeadRow, Heads } from './heads.js';
import { getField, withField, type Entry } from './model.js';
import { scopeKey } from './scope-key.js';
import type { EntryRecord } from './store.js';
import { isRow } from './table.js';
import { readLinks, type Links } from './links-index.js';
import { stampedBuckets } from './stamped-buckets.js';

/** The entry's scope when it has none written (its session's), or undefined. */
export type ScopeOf = (entry: Entry) => string | undefined;

export const LAYOUT = 7;
export const DIR = 'heads';
export const META = 'meta.json';

export { filesDigestOf, statedMemoryFiles, type StatedMemoryFile };

/** The files' digest under a scope mapping: what the heads are stamped with (they hold scopes derived under it). */
export const digestOf = (filesDigest: string, mappingKey: string) => stampOfTexts(filesDigest, mappingKey);

/** A scope's heads; its rows (heads-model.ts, for the refresh only). */
export const scopeFile = (scope: string) => `${stampOfTexts(scope).slice(0, 16)}.json`;
export const rowsFile = (scope: string) => `r-${stampOfTexts(scope).slice(0, 16)}.json`;

/** The id index: `ids-NNN.json`, every id with the files holding it (and its scope), bucketed by id. */
export const ID_BUCKETS = 256;
export const idBucketFile = (b: number) => `ids-${String(b).padStart(3, '0')}.json`;
export const idBucketOf = (id: string) => bucketOfText(id, ID_BUCKETS);

/** What the heads are as a whole: `meta.json`, written last. */
export interface CurrentHeads {
  layout: number;
  digest: string;
  filesDigest: string;
  mappingKey: string;
  /** The scopes with heads, sorted. */
  scopes: string[];
  /** The scopes with rows (a scope whose entries are all out of force has rows, not heads). */
  rowScopes: string[];
  cited: Heads['cited'];
  /** Every other file's generation. */
  gens: Record<string, string>;
  /** The id buckets holding ids: only those are written (a small workspace leaves most of 256 empty). */
  idBuckets: number[];
  /** The names of the project scopes held that the secret gate of memfold `gateVersion` leaves whole (scope.ts projectScope). */
  passed: string[];
  gateVersion: string;
}

const strings = (x: unknown) => Array.isArray(x) && x.every((v) => typeof v === 'string');
const record = (x: unknown) => !!x && typeof x === 'object' && !Array.isArray(x);

export function readMeta(dir: string): CurrentHeads | undefined {
  const v = readJson(path.join(dir, META)) as Partial<CurrentHeads> | undefined;
  return v?.layout === LAYOUT &&
    typeof v.digest === 'string' &&
    typeof v.filesDigest === 'string' &&
    typeof v.mappingKey === 'string' &&
    strings(v.scopes) &&
    strings(v.rowScopes) &&
    record(v.cited) &&
    record(v.gens) &&
    Array.isArray(v.idBuckets) &&
    strings(v.passed) &&
    typeof v.gateVersion === 'string'
    ? (v as CurrentHeads)
    : undefined;
}

/** A scope's heads as the meta names them; undefined when missing or of another generation. */
function readScope(dir: string, gens: Record<string, string>, scope: string): HeadRow[] | undefined {
  const name = scopeFile(scope);
  const v = Object.hasOwn(gens, name) ? readGenFile(dir, name, gens[name]!) : undefined;
  return v && Array.isArray(v.rows) && v.rows.every((x) => Array.isArray(x) && typeof x[0] === 'string' && isRow(x[1]))
    ? (v.rows as HeadRow[])
    : undefined;
}

/** The heads' meta when they describe memory/ as it is now under this scope mapping (one listing of memory/); else undefined. */
export function currentHeads(
  workspace: string,
  tableDir: string,
  mappingKey: string,
  filesDigest?: string,
): CurrentHeads | undefined {
  const meta = readMeta(path.join(workspace, tableDir, DIR));
  return meta && meta.digest === digestOf(filesDigest ?? memoryFilesDigest(workspace), mappingKey) ? meta : undefined;
}

/** The rows of global's heads (unless `withGlobal` is false) and of `scope`'s, from heads `current` gave; undefined when a file is missing or of another generation. */
export function headRows(
  workspace: string,
  tableDir: string,
  current: CurrentHeads,
  scope: string | undefined,
  withGlobal = true,
): HeadRow[] | undefined {
  const rows: HeadRow[] = [];
  for (const key of new Set([...(withGlobal ? ['global'] : []), ...(scope?.trim() ? [scopeKey(scope)] : [])])) {
    if (!current.scopes.includes(key)) continue;
    const got = readScope(path.join(workspace, tableDir, DIR), current.gens, key);
    if (!got) return undefined;
    rows.push(...got);
  }
  return rows;
}

export interface IdIndex {
  /** The files holding `id`, in file order (none: no entry has it). */
  filesWith(id: string): string[];
  /** Every id, each once. */
  ids(): string[];
  /** The chain links written with the index (links-index.ts), or undefined when they are missing or damaged. */
  links(): Links | undefined;
}

/** An id bucket's ids, when it has the shape a refresh writes. */
export const idsOf = (v: Record<string, unknown>) =>
  record(v.ids) && record(v.scopes)
    ? { ids: v.ids as Record<string, string[]>, scopes: v.scopes as Record<string, string> }
    : undefined;

/**
 * The id index, when it describes memory/ as it is now; else undefined. An id bucket of another
 * generation reads as undefined. `asBuilt`: as it was built, without listing memory/ to compare
 * (for a caller that reads the files it names as they are now, entriesWithId in table-store.ts).
 */
export function readIdIndex(workspace: string, tableDir: string, asBuilt = false): IdIndex | undefined {
  const dir = path.join(workspace, tableDir, DIR);
  const meta = readMeta(dir);
  if (!meta || (!asBuilt && meta.filesDigest !== memoryFilesDigest(workspace))) return undefined;
  const bucket = stampedBuckets(dir, idBucketFile, meta.gens, meta.idBuckets, (v) => idsOf(v)?.ids, {});
  try {
    // Read one bucket now, so a damaged index is found here, not by a caller half-way through.
    bucket(meta.idBuckets[0] ?? 0);
  } catch {
    return undefined;
  }
  return {
    filesWith: (id) => (Object.hasOwn(bucket(idBucketOf(id)), id) ? bucket(idBucketOf(id))[id]! : []),
    ids: () => Array.from({ length: ID_BUCKETS }, (_, b) => Object.keys(bucket(b))).flat(),
    links: () => readLinks(dir, meta.gens),
  };
}

/** Entries with the scope a reader gives them: an old entry without one gets its session's (or stays unscoped). */
export function withScopes(records: EntryRecord[], scopeOf: ScopeOf): EntryRecord[] {
  return records.map((r) =>
    getField(r.entry, 'scope') ? r : { ...r, entry: withField(r.entry, 'scope', scopeOf(r.entry) ?? '') },
  );
}
