/**
 * The in-force heads (heads.ts) in `.mem/entries/heads/`, stamped with a digest of every memory
 * file's size, mtime and ctime (heads-files.ts) and of the scope mapping they were built with. Built by the entry
 * table's refresh (table-store.ts), which every job that writes Markdown, `mem index`, the watcher
 * and the daemon run; read by `mem context` without a query.
 *
 * Invariant: heads are used only when they describe memory/ exactly as it is now: a read lists and
 * stats memory/ and compares the digest, so a hand edit, a pull or a deleted `.mem/` sends the read
 * to the whole table (table-store.ts readEntryTable), which answers the same, only slower. A read
 * never writes them (DESIGN invariant 4); a refresh writes them only from rows whose stamps match the
 * files it just listed, so heads built while a person saved a file are not written at all.
 */
import fs from 'node:fs';
import path from 'node:path';
import { VERSION } from '../core/version.js';
import { readDerivedJson as readJson, writeDerivedFile } from '../write/atomic.js';
import { filesDigestOf, memoryFilesDigest, statedMemoryFiles, type StatedMemoryFile } from './heads-files.js';
import { bucketOfText, stampOfTexts } from './heads-hash.js';
import { buildHeads, type HeadRow, type Heads } from './heads.js';
import { linkedIds } from './id.js';
import { getField, withField, type Entry } from './model.js';
import { scopeKey } from './scope-key.js';
import type { EntryRecord } from './store.js';
import { isRow } from './table.js';
import { readLinks, writeLinks, type Links } from './links-index.js';
import { stampedBuckets } from './stamped-buckets.js';

/** The entry's scope when it has none written (its session's), or undefined. */
export type ScopeOf = (entry: Entry) => string | undefined;

const LAYOUT = 6;
const PROJECT = 'project:';
const DIR = 'heads';

export { filesDigestOf, statedMemoryFiles, type StatedMemoryFile };

/** The files' digest under a scope mapping: what the heads are stamped with (they hold scopes derived under it). */
const digestOf = (filesDigest: string, mappingKey: string) => stampOfTexts(filesDigest, mappingKey);

/** `heads/meta.json` (digest, the scopes present, MEMORY.md's ids) and one file per scope, each with the digest. */
const META = 'meta.json';
const scopeFile = (scope: string) => `${stampOfTexts(scope).slice(0, 16)}.json`;

interface Meta {
  layout: number;
  digest: string;
  filesDigest: string;
  scopes: string[];
  cited: Heads['cited'];
  /** The id buckets holding ids: only those are written (a small workspace leaves most of 256 empty). */
  idBuckets: number[];
  /** The names of the project scopes held that the secret gate of memfold `gateVersion` leaves whole (scope.ts projectScope). */
  passed: string[];
  gateVersion: string;
}

function readMeta(dir: string): Meta | undefined {
  const v = readJson(path.join(dir, META)) as Partial<Meta> | undefined;
  return v?.layout === LAYOUT &&
    typeof v.digest === 'string' &&
    typeof v.filesDigest === 'string' &&
    Array.isArray(v.scopes) &&
    v.cited &&
    typeof v.cited === 'object' &&
    Array.isArray(v.idBuckets) &&
    Array.isArray(v.passed) &&
    v.passed.every((x) => typeof x === 'string') &&
    typeof v.gateVersion === 'string'
    ? (v as Meta)
    : undefined;
}

/** A scope's heads as written with `digest`; undefined when missing or from another build. */
function readScope(dir: string, scope: string, digest: string): HeadRow[] | undefined {
  const v = readJson(path.join(dir, scopeFile(scope))) as { digest?: unknown; rows?: unknown } | undefined;
  return v?.digest === digest &&
    Array.isArray(v.rows) &&
    v.rows.every((x) => Array.isArray(x) && typeof x[0] === 'string' && isRow(x[1]))
    ? (v.rows as HeadRow[])
    : undefined;
}

/** Heads that describe memory/ as it is now: their digest, the scopes they hold and MEMORY.md's ids followed to their ends. */
export interface CurrentHeads {
  digest: string;
  scopes: string[];
  cited: Heads['cited'];
  passed: string[];
  gateVersion: string;
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

/** The rows of global's heads (unless `withGlobal` is false) and of `scope`'s, from heads `current` gave; undefined when a file is missing or of another build. */
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
    const got = readScope(path.join(workspace, tableDir, DIR), key, current.digest);
    if (!got) return undefined;
    rows.push(...got);
  }
  return rows;
}

/** The id index: `ids-NNN.json`, every id with the files holding it, bucketed by id, stamped with the files' digest. */
const ID_BUCKETS = 256;
const idBucketFile = (b: number) => `ids-${String(b).padStart(3, '0')}.json`;

const idBucketOf = (id: string) => bucketOfText(id, ID_BUCKETS);

export interface IdIndex {
  /** The files holding `id`, in file order (none: no entry has it). */
  filesWith(id: string): string[];
  /** Every id, each once. */
  ids(): string[];
  /** The chain links written with the index (links-index.ts), or undefined when they are missing or damaged. */
  links(): Links | undefined;
}

/**
 * The id index, when it describes memory/ as it is now; else undefined. An id bucket written by
 * another build reads as undefined. `asBuilt`: as it was built, without listing memory/ to compare
 * (for a caller that reads the files it names as they are now, entriesWithId in table-store.ts).
 */
export function readIdIndex(workspace: string, tableDir: string, asBuilt = false): IdIndex | undefined {
  const dir = path.join(workspace, tableDir, DIR);
  const meta = readMeta(dir);
  if (!meta || (!asBuilt && meta.filesDigest !== memoryFilesDigest(workspace))) return undefined;
  const bucket = stampedBuckets(
    dir,
    idBucketFile,
    meta.filesDigest,
    meta.idBuckets,
    (v) => (v.ids && typeof v.ids === 'object' ? (v.ids as Record<string, string[]>) : undefined),
    {},
  );
  try {
    // Read one bucket now, so a damaged index is found here, not by a caller half-way through.
    bucket(meta.idBuckets[0] ?? 0);
  } catch {
    return undefined;
  }
  return {
    filesWith: (id) => (Object.hasOwn(bucket(idBucketOf(id)), id) ? bucket(idBucketOf(id))[id]! : []),
    ids: () => Array.from({ length: ID_BUCKETS }, (_, b) => Object.keys(bucket(b))).flat(),
    links: () => readLinks(dir, meta.filesDigest),
  };
}

/** Entries with the scope a reader gives them: an old entry without one gets its session's (or stays unscoped). */
export function withScopes(records: EntryRecord[], scopeOf: ScopeOf): EntryRecord[] {
  return records.map((r) =>
    getField(r.entry, 'scope') ? r : { ...r, entry: withField(r.entry, 'scope', scopeOf(r.entry) ?? '') },
  );
}

/**
 * Rebuilds the heads when memory/, the scope mapping or the ids MEMORY.md names changed since they
 * were built. `recordsAt` gives every entry of the listed files from rows stamped as listed, or
 * undefined when the table is behind a file (the heads are then removed, not rebuilt). Returns the
 * heads as they now are, or undefined when there are none.
 */
export function refreshHeads(
  workspace: string,
  dir: string,
  opts: { scopeOf: ScopeOf; mappingKey: string; passesGate: (name: string) => boolean },
  recordsAt: (files: StatedMemoryFile[]) => EntryRecord[] | undefined,
): CurrentHeads | undefined {
  const files = statedMemoryFiles(workspace);
  const filesDigest = filesDigestOf(files);
  const digest = digestOf(filesDigest, opts.mappingKey);
  let memoryText = '';
  try {
    memoryText = fs.readFileSync(path.join(workspace, 'MEMORY.md'), 'utf8');
  } catch {
    // No MEMORY.md: nothing cited.
  }
  const cited = [...new Set(linkedIds(memoryText))];
  const heads = path.join(workspace, dir, DIR);
  const meta = readMeta(heads);
  if (meta?.digest === digest && cited.every((id) => Object.hasOwn(meta.cited, id))) return meta;
  const records = recordsAt(files);
  // The meta file goes first and last: a reader finds either no meta, or scope files of its digest.
  fs.rmSync(path.join(heads, META), { force: true });
  if (!records) return undefined;
  const built = buildHeads(withScopes(records, opts.scopeOf), cited);
  fs.mkdirSync(heads, { recursive: true });
  for (const name of fs.readdirSync(heads)) fs.rmSync(path.join(heads, name), { force: true });
  for (const [scope, rows] of Object.entries(built.scopes))
    writeDerivedFile(path.join(heads, scopeFile(scope)), JSON.stringify({ digest, rows }));
  const ids = Array.from({ length: ID_BUCKETS }, () => ({}) as Record<string, string[]>);
  for (const r of records) {
    if (!r.id) continue;
    const at = ids[idBucketOf(r.id)]!;
    const held = Object.hasOwn(at, r.id) ? at[r.id]! : (at[r.id] = []);
    if (held.at(-1) !== r.file) held.push(r.file);
  }
  const idBuckets = ids.flatMap((bucket, b) => (Object.keys(bucket).length ? [b] : []));
  for (const b of idBuckets)
    writeDerivedFile(path.join(heads, idBucketFile(b)), JSON.stringify({ digest: filesDigest, ids: ids[b] }));
  writeLinks(heads, filesDigest, records);
  const scopes = Object.keys(built.scopes);
  // A folder named as one of these gets its scope without the secret scan (a tenth of a `mem context`).
  const passed = scopes.flatMap((s) =>
    s.startsWith(PROJECT) && opts.passesGate(s.slice(PROJECT.length)) ? [s.slice(PROJECT.length)] : [],
  );
  const made: Meta = {
    layout: LAYOUT,
    digest,
    filesDigest,
    scopes,
    cited: built.cited,
    idBuckets,
    passed,
    gateVersion: VERSION,
  };
  writeDerivedFile(path.join(heads, META), JSON.stringify(made));
  return made;
}
