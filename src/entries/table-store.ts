/**
 * The entry table in `.mem/entries/` (issue 28): every entry of memory/ as a row (table.ts), in 32
 * bucket files by path, each file's rows stamped with its size, mtime and ctime, and stamps.json
 * listing every stamp (table-buckets.ts). This file reads it; table-refresh.ts brings it up to date.
 * No lint count or conflict: status's summary is governance-refresh.ts's (no luxon here).
 *
 * Invariant: the table is never required and a read never writes it (DESIGN invariant 4). A read
 * stats every memory file and parses, in memory, each one the table lacks or holds with another
 * stamp (a hand edit, a deleted or damaged `.mem/`), so it answers exactly as parsing every file
 * would; deleting `.mem/` loses nothing and costs one slower read until the next refresh.
 */
import path from 'node:path';
import { isLink, outsideTarget } from '../core/outside-link.js';
import { regularFile } from '../core/regular-file.js';
import { readIdIndex, statedMemoryFiles, type StatedMemoryFile } from './heads-store.js';
import { parseFile, parsedNow } from './parsed-files.js';
import type { EntryRecord } from './store.js';
import type { Links } from './links-index.js';
import { TABLE_FIELDS, tableRecord, type Row } from './table.js';
import { BUCKETS, bucketOf, readBucket, stampedAs, TABLE_DIR, type Bucket } from './table-buckets.js';

export { TABLE_DIR } from './table-buckets.js';

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
  /** The chain links of every entry (links-index.ts), when the id index answered and holds them. */
  links?: Links;
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
    // Read when asked (trace): a get never needs it.
    get links() {
      return index.links();
    },
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
