/**
 * The entry table in `.mem/entries/` (issue 28): every entry of memory/ as a row (table.ts), in 32
 * bucket files by path, each file's rows stamped with its size, mtime and ctime, and stamps.json
 * listing every stamp. `mem index`, the watcher, the daemon, the search server and every job that
 * writes Markdown refresh it through the index update (search/update.ts), rewriting only the buckets
 * whose files changed. No lint count or conflict: status's summary is governance-refresh.ts's (no luxon here).
 *
 * Invariant: the table is never required and a read never writes it (DESIGN invariant 4). A read
 * stats every memory file and parses, in memory, each one the table lacks or holds with another
 * stamp (a hand edit, a deleted or damaged `.mem/`), so it answers exactly as parsing every file
 * would; deleting `.mem/` loses nothing and costs one slower read until the next refresh.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isLink, outsideTarget } from '../core/outside-link.js';
import { regularFile } from '../core/regular-file.js';
import { readDerivedJson, writeDerivedFile } from '../write/atomic.js';
import {
  readIdIndex,
  refreshHeads,
  statedMemoryFiles,
  type CurrentHeads,
  type ScopeOf,
  type StatedMemoryFile,
} from './heads-store.js';
import { parsedFile } from './kept-files.js';
import { parseFile, parsedNow } from './parsed-files.js';
import type { EntryRecord } from './store.js';
import { isRow, rowOf, TABLE_FIELDS, tableRecord, type Row } from './table.js';

export const TABLE_DIR = '.mem/entries';
const BUCKETS = 32;
/** Part of every bucket: a table of another layout or field list is read as empty, and rewritten. */
const LAYOUT = `3:${TABLE_FIELDS.join(',')}`;

type Stamped = [size: number, mtimeMs: number, ctimeMs: number, rows: Row[]];
type Bucket = Record<string, Stamped>;

/** A path's bucket (FNV-1a over UTF-16 code units). */
function bucketOf(p: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < p.length; i++) h = Math.imul(h ^ p.charCodeAt(i), 0x01000193);
  return (h >>> 0) % BUCKETS;
}

const bucketFile = (workspace: string, b: number) =>
  path.join(workspace, TABLE_DIR, `b${String(b).padStart(2, '0')}.json`);

/** Bucket `b` as stored, or empty when missing, damaged or of another layout; kept by a long-lived process (kept-files.ts). Never changed by a caller. */
function readBucket(workspace: string, b: number): Bucket {
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

/** A memory file's entries: rows from the table where its stamp matches, else records parsed from the file. */
type FileEntries = { file: string; rows: Row[] } | { file: string; parsed: EntryRecord[] };

/** Every memory file's entries, in file order. */
async function scan(workspace: string): Promise<FileEntries[]> {
  const stored = Array.from({ length: BUCKETS }, (_, b) => readBucket(workspace, b));
  const out: FileEntries[] = [];
  for (const st of statedMemoryFiles(workspace)) {
    const had = stored[bucketOf(st.file)]![st.file];
    out.push(
      had && stampedAs(had, st)
        ? { file: st.file, rows: had[3] }
        : { file: st.file, parsed: await parseFile(workspace, st.file) },
    );
  }
  return out;
}

/** A memory file as stated now with its records: from the table's rows where stamped as stated (`fromTable`), else parsed now. */
export interface StatedRecords {
  st: StatedMemoryFile;
  records: EntryRecord[];
  fromTable: boolean;
}

/** Every memory file in `listed` with its records, in file order (what a summary of every entry reads). Writes nothing. */
export async function statedRecords(workspace: string, listed: StatedMemoryFile[]): Promise<StatedRecords[]> {
  const stored = new Map<number, Bucket>();
  const bucket = (b: number) => stored.get(b) ?? stored.set(b, readBucket(workspace, b)).get(b)!;
  const out: StatedRecords[] = [];
  for (const st of listed) {
    const had = bucket(bucketOf(st.file))[st.file];
    out.push(
      had && stampedAs(had, st)
        ? { st, records: had[3].map((row) => tableRecord(st.file, row)), fromTable: true }
        : { st, records: await parseFile(workspace, st.file), fromTable: false },
    );
  }
  return out;
}

const stampedAs = (had: Stamped, st: StatedMemoryFile) =>
  had[0] === st.size && had[1] === st.mtimeMs && had[2] === st.ctimeMs;

/** A record as parsed from its file (its raw text and every field), each file read once: what prints or renders an entry. */
export function wholeRecords(workspace: string): (r: EntryRecord) => Promise<EntryRecord> {
  const parsed = new Map<string, Promise<EntryRecord[]>>();
  return async (r) => {
    if (r.block.raw) return r;
    let got = parsed.get(r.file);
    if (!got) parsed.set(r.file, (got = parsedNow(workspace, r.file)));
    return (await got).find((x) => x.block.startLine === r.block.startLine && x.id === r.id) ?? r;
  };
}

/** Where a row holds the entry's id (table.ts: kind, title, two lines, then TABLE_FIELDS). */
const ID_AT = 4 + TABLE_FIELDS.indexOf('id');

/**
 * The entries with exactly `id` (whole), from the files the id index names, each read as it is now,
 * without listing memory/: what `mem get` of an id an agent was given needs. Undefined when no
 * index is kept or the files it names no longer hold the id (moved, a new entry added by hand): the
 * caller then reads every file. Not seen: the same id added by hand to a file the index does not
 * name for it (`mem lint` reports ids entries share).
 */
export async function entriesWithId(workspace: string, id: string): Promise<EntryRecord[] | undefined> {
  let files: string[] = [];
  try {
    files = readIdIndex(workspace, TABLE_DIR, true)?.filesWith(id) ?? [];
  } catch {
    return undefined; // A bucket of another build: no index.
  }
  // Each as a listing of memory/ would take it: a regular file, not a link out of the workspace.
  const readable = files.every((file) => {
    const abs = path.join(workspace, file);
    return regularFile(abs) && !(isLink(abs) && outsideTarget(abs, [workspace]));
  });
  const found = readable
    ? (await Promise.all(files.map((f) => parseFile(workspace, f)))).flat().filter((r) => r.id === id)
    : [];
  return found.length ? found : undefined;
}

/** What `mem get` needs: the entries with an id, and their whole text. */
export interface IdLookup {
  /** The entries with this id, in file order. */
  withId(id: string): EntryRecord[];
  /** Every entry's id (what a typed id is resolved among: entries/id-resolve.ts). */
  ids(): string[];
  /** The record as parsed from its file (its raw text and every field): what prints or renders an entry. */
  whole(r: EntryRecord): Promise<EntryRecord>;
}

/**
 * The entries by id from the id index (heads-store.ts) while it describes memory/ as it is: the
 * rows of the files holding the id, one bucket read instead of all; else from the whole table.
 */
export async function readIdLookup(workspace: string): Promise<IdLookup> {
  const index = readIdIndex(workspace, TABLE_DIR);
  if (!index) return readEntryTable(workspace);
  const buckets = new Map<number, Bucket>();
  const rowsOf = (file: string) => {
    const b = bucketOf(file);
    if (!buckets.has(b)) buckets.set(b, readBucket(workspace, b));
    return buckets.get(b)![file]?.[3];
  };
  const table: IdLookup = {
    withId: (id) =>
      index
        .filesWith(id)
        .flatMap((file) =>
          (rowsOf(file) ?? []).filter((row) => (row[ID_AT] ?? '') === id).map((row) => tableRecord(file, row)),
        ),
    ids: () => index.ids(),
    whole: wholeRecords(workspace),
  };
  return table;
}

export interface EntryTable extends IdLookup {
  /** Every entry, in file order; a record read from the table holds only the table's fields (table.ts). Made on first use. */
  readonly records: EntryRecord[];
}

/** Reads the table with every changed file overlaid; writes nothing. */
export async function readEntryTable(workspace: string): Promise<EntryTable> {
  const files = await scan(workspace);
  let records: EntryRecord[] | undefined;
  return {
    get records() {
      return (records ??= files.flatMap((f) =>
        'rows' in f ? f.rows.map((row) => tableRecord(f.file, row)) : f.parsed,
      ));
    },
    withId: (id) =>
      files.flatMap((f) =>
        'rows' in f
          ? f.rows.filter((row) => (row[ID_AT] ?? '') === id).map((row) => tableRecord(f.file, row))
          : f.parsed.filter((r) => r.id === id),
      ),
    ids: () =>
      files.flatMap((f) => ('rows' in f ? f.rows.map((row) => String(row[ID_AT] ?? '')) : f.parsed.map((r) => r.id))),
    whole: wholeRecords(workspace),
  };
}

const STAMPS = 'stamps.json';

/** A memory file as the index's scan stated it (search/scan.ts ScannedFile): workspace-relative path with `/`. */
export interface StatedFile {
  path: string;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

const listed = (workspace: string) => statedMemoryFiles(workspace).map((st) => ({ file: st.file, st }));

/** Every stored file's stamp, written after its bucket: an update reads only the buckets whose files changed. */
export function readStamps(workspace: string): Record<string, [number, number, number]> {
  const v = readDerivedJson(path.join(workspace, TABLE_DIR, STAMPS)) as
    { layout?: unknown; stamps?: unknown } | undefined;
  return v?.layout === LAYOUT && v.stamps && typeof v.stamps === 'object'
    ? (v.stamps as Record<string, [number, number, number]>)
    : {};
}

/**
 * Brings the stored table up to date with memory/ (the caller holds the index lock), from the files
 * the index update just stated when it gives them (`scanned`), else from a listing. Only the
 * buckets holding a file whose stamp differs from stamps.json are read, rebuilt and written, so a
 * one-edit `mem index` parses one bucket, not the table. With `heads`, the in-force heads
 * (heads-store.ts) follow, rebuilt only when something they depend on changed, and are returned.
 */
export async function refreshEntryTable(
  workspace: string,
  scanned?: readonly StatedFile[],
  heads?: { scopeOf: ScopeOf; mappingKey: string },
): Promise<CurrentHeads | undefined> {
  const stamps = readStamps(workspace);
  const now: Record<string, [number, number, number]> = {};
  const changed = new Set<number>();
  for (const { file, st } of scanned
    ? scanned.filter((f) => f.path.startsWith('memory/')).map((f) => ({ file: f.path, st: f }))
    : listed(workspace)) {
    const was = stamps[file];
    now[file] = [st.size, st.mtimeMs, st.ctimeMs];
    if (!was || was[0] !== st.size || was[1] !== st.mtimeMs || was[2] !== st.ctimeMs) changed.add(bucketOf(file));
  }
  for (const file of Object.keys(stamps)) if (!now[file]) changed.add(bucketOf(file));
  const dir = path.join(workspace, TABLE_DIR);
  const written = new Map<number, Bucket>();
  if (changed.size) {
    fs.mkdirSync(dir, { recursive: true });
    for (const b of changed) {
      const stored = readBucket(workspace, b);
      const files: Bucket = {};
      for (const [file, st] of Object.entries(now)) {
        if (bucketOf(file) !== b) continue;
        const had = stored[file];
        files[file] =
          had && had[0] === st[0] && had[1] === st[1] && had[2] === st[2]
            ? had
            : [...st, (await parseFile(workspace, file)).map(rowOf)];
      }
      writeDerivedFile(bucketFile(workspace, b), JSON.stringify({ layout: LAYOUT, files }));
      written.set(b, files);
    }
    writeDerivedFile(path.join(dir, STAMPS), JSON.stringify({ layout: LAYOUT, stamps: now }));
  }
  if (!heads || !fs.existsSync(dir)) return undefined;
  // Loaded here, not with the module: `mem get` and `mem context` read the heads, never build them.
  const { redactSecrets } = await import('../secrets/secrets.js');
  return refreshHeads(
    workspace,
    TABLE_DIR,
    { ...heads, passesGate: (name) => redactSecrets(name).text === name },
    (listedNow) => {
      const buckets = new Map(written);
      const bucket = (b: number) => buckets.get(b) ?? buckets.set(b, readBucket(workspace, b)).get(b)!;
      const records: EntryRecord[] = [];
      for (const st of listedNow) {
        const had = bucket(bucketOf(st.file))[st.file];
        if (!had || !stampedAs(had, st)) return undefined;
        for (const row of had[3]) records.push(tableRecord(st.file, row));
      }
      return records;
    },
  );
}
