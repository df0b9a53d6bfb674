/**
 * `.mem/entries/governance.json`: what `mem status` shows of the entries (governance-summary.ts),
 * written by governance-refresh.ts and stamped, as the id index is
 * (heads-store.ts), with the digest of every memory file's size, mtime and ctime and with the daily
 * file limit it counted against. The certain conflicts are listed in governance-conflicts.json (tens of
 * thousands on a large workspace, 13 MB at 10,000 files): read only when they are printed (`--json`).
 *
 * Invariant: the stored summary is used only while it describes memory/ as it is now: a read lists
 * and stats memory/ and compares the digest, so after a hand edit, a pull or a deleted `.mem/`
 * `mem status` summarizes the table with the changed files parsed (same answer, slower). A read never
 * writes it (DESIGN invariant 4). Beside it, governance-lint.json keeps each file's own lint count
 * under the file's stamp, so a refresh lints only the files that changed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { readDerivedJson, writeDerivedFile } from '../write/atomic.js';
import type { Conflict } from './active-conflicts.js';
import type { GovernanceSummary } from './governance-summary.js';
import type { StatedMemoryFile } from './heads-store.js';

const LAYOUT = 2;

/** A summary as JSON gave it back, checked before it is trusted (here, not in governance-summary.ts: reading one loads no lint). */
const isConflictList = (c: unknown): c is Conflict[] =>
  Array.isArray(c) &&
  c.every(
    (k) =>
      k && typeof k.reason === 'string' && Array.isArray(k.ids) && k.ids.every((id: unknown) => typeof id === 'string'),
  );

function isSummary(x: unknown): x is GovernanceSummary {
  const v = x as Partial<GovernanceSummary> | undefined;
  return (
    !!v &&
    typeof v.lint === 'number' &&
    typeof v.conflictCount === 'number' &&
    isConflictList(v.conflicts) &&
    isConflictList(v.suspected) &&
    Array.isArray(v.dailyEntries) &&
    v.dailyEntries.every((d) => d && typeof d.path === 'string' && typeof d.value === 'number')
  );
}
const FILE = 'governance.json';
const LIST = 'governance-conflicts.json';
const OWN_LINT = 'governance-lint.json';

interface Stored {
  layout: number;
  filesDigest: string;
  maxEntriesPerDailyFile: number;
  summary: GovernanceSummary;
}

function readStored(workspace: string, tableDir: string): Stored | undefined {
  const v = readDerivedJson(path.join(workspace, tableDir, FILE)) as Partial<Stored> | undefined;
  return v?.layout === LAYOUT &&
    typeof v.filesDigest === 'string' &&
    typeof v.maxEntriesPerDailyFile === 'number' &&
    isSummary(v.summary)
    ? (v as Stored)
    : undefined;
}

/**
 * The stored summary when it describes memory/ as `filesDigest` does (heads-store.ts filesDigestOf) under this limit; else undefined. Its
 * `conflicts` are the first 3 unless `allConflicts`.
 */
export function readStoredGovernance(
  workspace: string,
  tableDir: string,
  filesDigest: string,
  maxEntriesPerDailyFile: number,
  allConflicts: boolean,
): GovernanceSummary | undefined {
  const had = readStored(workspace, tableDir);
  if (!had || had.maxEntriesPerDailyFile !== maxEntriesPerDailyFile || had.filesDigest !== filesDigest)
    return undefined;
  if (!allConflicts) return had.summary;
  const v = readDerivedJson(path.join(workspace, tableDir, LIST)) as
    { filesDigest?: unknown; maxEntriesPerDailyFile?: unknown; conflicts?: unknown } | undefined;
  const ok =
    v?.filesDigest === had.filesDigest &&
    v.maxEntriesPerDailyFile === maxEntriesPerDailyFile &&
    isConflictList(v.conflicts) &&
    v.conflicts.length === had.summary.conflictCount;
  return ok ? { ...had.summary, conflicts: v.conflicts as GovernanceSummary['conflicts'] } : undefined;
}

/** Whether governance.json holds the summary of memory/ as `filesDigest` describes it, under this limit. */
export function storedGovernanceIs(
  workspace: string,
  tableDir: string,
  filesDigest: string,
  maxEntriesPerDailyFile: number,
): boolean {
  const had = readStored(workspace, tableDir);
  return had?.filesDigest === filesDigest && had.maxEntriesPerDailyFile === maxEntriesPerDailyFile;
}

/** Writes the summary of memory/ as `filesDigest` describes it: the whole list of conflicts first, so a reader finds no summary or one whose list is written. */
export function writeGovernance(
  workspace: string,
  tableDir: string,
  filesDigest: string,
  maxEntriesPerDailyFile: number,
  summary: GovernanceSummary,
): void {
  const file = path.join(workspace, tableDir, FILE);
  fs.rmSync(file, { force: true });
  fs.mkdirSync(path.dirname(file), { recursive: true });
  writeDerivedFile(
    path.join(workspace, tableDir, LIST),
    JSON.stringify({ filesDigest, maxEntriesPerDailyFile, conflicts: summary.conflicts }),
  );
  writeDerivedFile(
    file,
    JSON.stringify({
      layout: LAYOUT,
      filesDigest,
      maxEntriesPerDailyFile,
      summary: { ...summary, conflicts: summary.conflicts.slice(0, 3) },
    } satisfies Stored),
  );
}

/** A file's own lint count (lint.ts ownProblemCount) under the stamp it was counted at. */
export type OwnLint = Record<string, [size: number, mtimeMs: number, ctimeMs: number, count: number]>;

export function readOwnLint(workspace: string, tableDir: string): OwnLint {
  const v = readDerivedJson(path.join(workspace, tableDir, OWN_LINT)) as
    { layout?: unknown; files?: unknown } | undefined;
  if (v?.layout !== LAYOUT || !v.files || typeof v.files !== 'object') return {};
  const out: OwnLint = {};
  for (const [f, s] of Object.entries(v.files as Record<string, unknown>))
    if (Array.isArray(s) && s.length === 4 && s.every((x) => typeof x === 'number')) out[f] = s as OwnLint[string];
  return out;
}

export const ownLintOf = (own: OwnLint, st: StatedMemoryFile): number | undefined => {
  const had = own[st.file];
  return had && had[0] === st.size && had[1] === st.mtimeMs && had[2] === st.ctimeMs ? had[3] : undefined;
};

export function writeOwnLint(workspace: string, tableDir: string, files: OwnLint): void {
  writeDerivedFile(path.join(workspace, tableDir, OWN_LINT), JSON.stringify({ layout: LAYOUT, files }));
}
