/**
 * `.mem/entries/governance.json`: what `mem status` shows of the entries (governance-summary.ts),
 * written by the entry table's refresh (table-store.ts) and stamped, as the id index is
 * (heads-store.ts), with the digest of every memory file's size, mtime and ctime and with the daily
 * file limit it counted against.
 *
 * Invariant: the stored summary is used only while it describes memory/ as it is now: a read lists
 * and stats memory/ and compares the digest, so after a hand edit, a pull or a deleted `.mem/`
 * `mem status` summarizes the table with the changed files parsed (same answer, slower). A read never
 * writes it (DESIGN invariant 4); a refresh writes it only from rows stamped as the files it listed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeDerivedFile } from '../write/atomic.js';
import { isSummary, summarize, type GovernanceSummary, type SummaryFile } from './governance-summary.js';
import { filesDigestOf, statedMemoryFiles, type StatedMemoryFile } from './heads-store.js';

const LAYOUT = 1;
const FILE = 'governance.json';

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

/** The stored summary when it describes memory/ as it is now under this limit; else undefined. */
export function readStoredGovernance(workspace: string, tableDir: string, maxEntriesPerDailyFile: number): GovernanceSummary | undefined {
  const had = readStored(workspace, tableDir);
  return had && had.maxEntriesPerDailyFile === maxEntriesPerDailyFile && had.filesDigest === filesDigestOf(statedMemoryFiles(workspace)) ? had.summary : undefined;
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
  if (!files) return fs.rmSync(file, { force: true });
  writeDerivedFile(file, JSON.stringify({ layout: LAYOUT, filesDigest, maxEntriesPerDailyFile, summary: summarize(files, { maxEntriesPerDailyFile }) } satisfies Stored));
}
