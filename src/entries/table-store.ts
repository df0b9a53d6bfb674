/**
 * The entry table in `.mem/entries/` (issue 28): every entry of memory/ as a row (table.ts), in 32
 * bucket files by path, each file's rows stamped with its size, mtime and ctime. `mem index`, the
 * watcher, the daemon, the search server and every job that writes Markdown refresh it through the
 * index update (search/update.ts), rewriting only the buckets whose files changed.
 *
 * Invariant: the table is never required and a read never writes it (DESIGN invariant 4). A read
 * stats every memory file and parses, in memory, each one the table lacks or holds with another
 * stamp (a hand edit, a deleted or damaged `.mem/`), so it answers exactly as parsing every file
 * would; deleting `.mem/` loses nothing and costs one slower read until the next refresh.
 */
import fs from 'node:fs';
import path from 'node:path';
import { markdownFilesUnder } from '../workspace/markdown-files.js';
import { readMemoryFiles, recordsOf, type EntryRecord } from './store.js';
import { isRow, rowOf, TABLE_FIELDS, tableRecord, type Row } from './table.js';

export const TABLE_DIR = '.mem/entries';
const BUCKETS = 32;
/** Part of every bucket: a table of another layout or field list is read as empty, and rewritten. */
const LAYOUT = `1:${TABLE_FIELDS.join(',')}`;

type Stamped = [size: number, mtimeMs: number, ctimeMs: number, rows: Row[]];
type Bucket = Record<string, Stamped>;

/** A path's bucket (FNV-1a over UTF-16 code units). */
function bucketOf(p: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < p.length; i++) h = Math.imul(h ^ p.charCodeAt(i), 0x01000193);
  return (h >>> 0) % BUCKETS;
}

const bucketFile = (workspace: string, b: number) => path.join(workspace, TABLE_DIR, `b${String(b).padStart(2, '0')}.json`);

/** Bucket `b` as stored, or empty when missing, damaged or of another layout. */
function readBucket(workspace: string, b: number): Bucket {
  try {
    const v = JSON.parse(fs.readFileSync(bucketFile(workspace, b), 'utf8')) as { layout?: unknown; files?: unknown };
    if (v?.layout !== LAYOUT || !v.files || typeof v.files !== 'object') return {};
    const out: Bucket = {};
    for (const [p, s] of Object.entries(v.files as Record<string, unknown>)) {
      if (Array.isArray(s) && s.length === 4 && s.slice(0, 3).every((n) => typeof n === 'number') && Array.isArray(s[3]) && s[3].every(isRow)) out[p] = s as Stamped;
    }
    return out;
  } catch {
    return {};
  }
}

interface Scan {
  records: EntryRecord[];
  /** Buckets whose stored content differs from the files (a file changed, added or removed). */
  stale: Map<number, Bucket>;
}

/** Every entry of memory/, from the table where its file's stamp matches, else from the file. */
async function scan(workspace: string): Promise<Scan> {
  const stored = Array.from({ length: BUCKETS }, (_, b) => readBucket(workspace, b));
  const fresh: Bucket[] = Array.from({ length: BUCKETS }, () => ({}));
  const stale = new Set<number>();
  const records: EntryRecord[] = [];
  for (const name of markdownFilesUnder(path.join(workspace, 'memory'))) {
    const file = `memory/${name}`;
    const st = fs.statSync(path.join(workspace, file), { throwIfNoEntry: false });
    if (!st) continue;
    const b = bucketOf(file);
    const had = stored[b]![file];
    if (had && had[0] === st.size && had[1] === st.mtimeMs && had[2] === st.ctimeMs) {
      fresh[b]![file] = had;
      for (const row of had[3]) records.push(tableRecord(file, row));
      continue;
    }
    stale.add(b);
    const parsed = (await readMemoryFiles(workspace, [file])).flatMap((f) => recordsOf(f.file, f.text));
    fresh[b]![file] = [st.size, st.mtimeMs, st.ctimeMs, parsed.map(rowOf)];
    records.push(...parsed);
  }
  for (let b = 0; b < BUCKETS; b++) if (Object.keys(stored[b]!).some((p) => !fresh[b]![p])) stale.add(b);
  return { records, stale: new Map([...stale].map((b) => [b, fresh[b]!])) };
}

export interface EntryTable {
  /** Every entry, in file order; a record read from the table holds only the table's fields (table.ts). */
  records: EntryRecord[];
  /** The record as parsed from its file (its raw text and every field): what prints or renders an entry. */
  whole(r: EntryRecord): Promise<EntryRecord>;
}

/** Reads the table with every changed file overlaid; writes nothing. */
export async function readEntryTable(workspace: string): Promise<EntryTable> {
  const { records } = await scan(workspace);
  const parsed = new Map<string, Promise<EntryRecord[]>>();
  const fileRecords = (file: string) => {
    let got = parsed.get(file);
    if (!got) parsed.set(file, (got = readMemoryFiles(workspace, [file]).then((fs) => fs.flatMap((f) => recordsOf(f.file, f.text)))));
    return got;
  };
  return {
    records,
    whole: async (r) => (r.block.raw ? r : (await fileRecords(r.file)).find((x) => x.block.startLine === r.block.startLine && x.id === r.id) ?? r),
  };
}

/** Brings the stored table up to date with memory/ (the caller holds the index lock); rewrites only changed buckets. */
export async function refreshEntryTable(workspace: string): Promise<void> {
  const { stale } = await scan(workspace);
  if (!stale.size) return;
  const dir = path.join(workspace, TABLE_DIR);
  fs.mkdirSync(dir, { recursive: true });
  for (const [b, files] of stale) {
    const target = bucketFile(workspace, b);
    const tmp = `${target}.${process.pid}.tmp`;
    try {
      fs.writeFileSync(tmp, JSON.stringify({ layout: LAYOUT, files }));
      fs.renameSync(tmp, target);
    } finally {
      fs.rmSync(tmp, { force: true });
    }
  }
}
