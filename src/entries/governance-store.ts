/**
 * `.mem/entries/governance.json`: what `mem status` shows of the entries (governance-summary.ts),
 * written by the entry table's refresh (table-store.ts) and stamped, as the id index is
 * (heads-store.ts), with the digest of every memory file's size, mtime and ctime and with the daily
 * file limit it counted against. The certain conflicts are listed in governance-conflicts.json (tens of
 * thousands on a large workspace, 13 MB at 10,000 files): read only when they are printed (`--json`).
 *
 * Invariant: the stored summary is used only while it describes memory/ as it is now: a read lists
 * and stats memory/ and compares the digest, so after a hand edit, a pull or a deleted `.mem/`
 * `mem status` summarizes the table with the changed files parsed (same answer, slower). A read never
 * writes it (DESIGN invariant 4); a refresh writes it only from rows stamped as the files it listed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeDerivedFile } from '../write/atomic.js';
import { isConflictList, isSummary, summarize, type GovernanceSummary, type SummaryFile } from './governance-summary.js';
import { filesDigestOf, statedMemoryFiles, type StatedMemoryFile } from './heads-store.js';

const LAYOUT = 2;
const FILE = 'governance.json';
const LIST = 'governance-conflicts.json';

interface Stored {
  layout: number;
  filesDigest: string;
  maxEntriesPerDailyFile: number;
  summary: GovernanceSummary;
}

function readStored(workspace: string, tableDir: string): Stored | undefined {
  try {
    const v = JSON.parse(fs.readFileSync(path.join(workspace, tableDir, FILE), 'utf8')) as Partial<Stored>;
    return v?.layout === LAYOUT && typeof v.filesDigest === 'string' && typeof v.maxEntriesPerDailyFile === 'number' && isSummary(v.summary) ? (v as Stored) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The stored summary when it describes memory/ as it is now under this limit; else undefined. Its
 * `conflicts` are the first 3 unless `allConflicts`.
 */
export function readStoredGovernance(workspace: string, tableDir: string, maxEntriesPerDailyFile: number, allConflicts: boolean): GovernanceSummary | undefined {
  const had = readStored(workspace, tableDir);
  if (!had || had.maxEntriesPerDailyFile !== maxEntriesPerDailyFile || had.filesDigest !== filesDigestOf(statedMemoryFiles(workspace))) return undefined;
  if (!allConflicts) return had.summary;
  try {
    const v = JSON.parse(fs.readFileSync(path.join(workspace, tableDir, LIST), 'utf8')) as { filesDigest?: unknown; maxEntriesPerDailyFile?: unknown; conflicts?: unknown };
    const ok = v.filesDigest === had.filesDigest && v.maxEntriesPerDailyFile === maxEntriesPerDailyFile && isConflictList(v.conflicts) && v.conflicts.length === had.summary.conflictCount;
    return ok ? { ...had.summary, conflicts: v.conflicts as GovernanceSummary['conflicts'] } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Rewrites governance.json when memory/ or the limit changed since it was written. `stored` gives
 * every listed file's records from rows stamped as listed, or undefined when the table is behind a
 * file: the summary is then removed, not written.
 */
export function refreshGovernance(workspace: string, tableDir: string, maxEntriesPerDailyFile: number, stored: (listed: StatedMemoryFile[]) => SummaryFile[] | undefined): void {
  const listed = statedMemoryFiles(workspace);
  const filesDigest = filesDigestOf(listed);
  const had = readStored(workspace, tableDir);
  if (had?.filesDigest === filesDigest && had.maxEntriesPerDailyFile === maxEntriesPerDailyFile) return;
  const file = path.join(workspace, tableDir, FILE);
  const files = stored(listed);
  fs.rmSync(file, { force: true });
  if (!files) return;
  // The list first: a reader finds no summary, or one whose list is written.
  const summary = summarize(files, { maxEntriesPerDailyFile });
  writeDerivedFile(path.join(workspace, tableDir, LIST), JSON.stringify({ filesDigest, maxEntriesPerDailyFile, conflicts: summary.conflicts }));
  writeDerivedFile(file, JSON.stringify({ layout: LAYOUT, filesDigest, maxEntriesPerDailyFile, summary: { ...summary, conflicts: summary.conflicts.slice(0, 3) } } satisfies Stored));
}
