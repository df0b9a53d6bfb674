/**
 * Bringing the entry table (table-buckets.ts) up to date with memory/ (issue 28): `mem index`, the
 * watcher, the daemon, the search server and every job that writes Markdown call it through the
 * index update (search/update.ts), then the in-force heads (heads-store.ts) follow.
 *
 * Invariant: only the buckets holding a file whose stamp differs from stamps.json are read, rebuilt
 * and written, each after its rows, and stamps.json after every bucket: a refresh cut short leaves
 * stamps that no longer match, so the next one redoes those buckets. Never called by a read
 * (DESIGN invariant 4).
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeDerivedFile } from '../write/atomic.js';
import { filesDigestOf, statedMemoryFiles, type CurrentHeads, type ScopeOf } from './heads-store.js';
import { refreshHeads, type TableDelta } from './heads-refresh.js';
import { parseFile } from './parsed-files.js';
import type { EntryRecord } from './store.js';
import { rowOf, tableRecord, type Row } from './table.js';
import {
  bucketFile,
  bucketOf,
  LAYOUT,
  readBucket,
  readStamps,
  stampedAs,
  STAMPS_FILE,
  TABLE_DIR,
  type Bucket,
} from './table-buckets.js';

/** A memory file as the index's scan stated it (search/scan.ts ScannedFile): workspace-relative path with `/`. */
export interface StatedFile {
  path: string;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

const listed = (workspace: string) => statedMemoryFiles(workspace).map((st) => ({ file: st.file, st }));

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
  // The changed files' rows before and after, for the heads' incremental refresh (heads-refresh.ts).
  const changedFiles = new Set<string>();
  const before = new Map<string, Row[]>();
  let known = true;
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
      for (const file of new Set([...Object.keys(files), ...Object.keys(stored)])) {
        const was = stamps[file];
        const is = now[file];
        if (was && is && was[0] === is[0] && was[1] === is[1] && was[2] === is[2]) continue;
        if (!was && !is) continue;
        changedFiles.add(file);
        // The rows the table held under the stamp stamps.json names (what the heads were built from).
        const had = stored[file];
        if (was) {
          if (had && had[0] === was[0] && had[1] === was[1] && had[2] === was[2]) before.set(file, had[3]);
          else known = false;
        }
      }
      writeDerivedFile(bucketFile(workspace, b), JSON.stringify({ layout: LAYOUT, files }));
      written.set(b, files);
    }
    writeDerivedFile(path.join(dir, STAMPS_FILE), JSON.stringify({ layout: LAYOUT, stamps: now }));
  }
  if (!heads || !fs.existsSync(dir)) return undefined;
  // Loaded here, not with the module: `mem get` and `mem context` read the heads, never build them.
  const { redactSecrets } = await import('../secrets/secrets.js');
  const order = [...changedFiles].sort();
  const recordsOf = (rows: (file: string) => Row[] | undefined) =>
    order.flatMap((file) => (rows(file) ?? []).map((row) => tableRecord(file, row)));
  const delta: TableDelta | undefined =
    changed.size && known
      ? {
          changed: changedFiles,
          before: recordsOf((f) => before.get(f)),
          after: recordsOf((f) => written.get(bucketOf(f))?.[f]?.[3]),
          beforeDigest: digestOfStamps(stamps),
          afterDigest: digestOfStamps(now),
        }
      : undefined;
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
    delta,
  );
}

/** The files' digest (heads-files.ts) of a table's stamps, in path order as a listing gives them. */
function digestOfStamps(stamps: Record<string, [number, number, number]>): string {
  return filesDigestOf(
    Object.keys(stamps)
      .sort()
      .map((file) => ({ file, size: stamps[file]![0], mtimeMs: stamps[file]![1], ctimeMs: stamps[file]![2] })),
  );
}
