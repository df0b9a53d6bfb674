/**
 * What `mem status` shows of the entries (governance-summary.ts: entries per daily file, conflicts,
 * the lint count), summarized from the entry table (table-store.ts) and each file's own lint count,
 * and stored in `.mem/entries/` (governance-store.ts) by the writers that have lint's modules loaded
 * anyway: the jobs that write Markdown, after their append, `mem watch`, hard forget's rebuild
 * (search/update.ts `governance`). Never by the lean `mem index`: it loads no luxon, and a summary of
 * every entry (conflicts among all of them) would be most of a one-edit run (issue #3).
 *
 * Invariant: the summary is derived and never required. A read (`mem status`) uses the stored one
 * only while it describes memory/ as it is now (the files' digest), else computes the same summary in
 * memory from the table with the changed files parsed, and writes nothing (DESIGN invariant 4).
 */
import {
  ownLintOf,
  readOwnLint,
  storedGovernanceIs,
  writeGovernance,
  writeOwnLint,
  type OwnLint,
} from './governance-store.js';
import { summarize, type GovernanceSummary, type SummaryFile } from './governance-summary.js';
import { filesDigestOf, statedMemoryFiles, type StatedMemoryFile } from './heads-store.js';
import { ownProblemCount } from './lint.js';
import { readMemoryFiles, recordsOf } from './store.js';
import { statedRecords, TABLE_DIR } from './table-store.js';
import { refreshSummaryLines } from '../workspace/summary-lines.js';

interface Computed {
  summary: GovernanceSummary;
  /** Every listed file's own lint count under its stamp. */
  own: OwnLint;
}

/** The summary of memory/ as `listed` states it: rows from the table, own lint counts stored or counted now. */
async function compute(
  workspace: string,
  listed: StatedMemoryFile[],
  maxEntriesPerDailyFile: number,
): Promise<Computed> {
  const stored = readOwnLint(workspace, TABLE_DIR);
  const own: OwnLint = {};
  const files: SummaryFile[] = [];
  for (const { st, records } of await statedRecords(workspace, listed)) {
    let n = ownLintOf(stored, st);
    if (n === undefined) {
      // Lint reads the file's text too (unclosed fences, control characters): this file changed since it was counted.
      const [f] = await readMemoryFiles(workspace, [st.file]);
      n = ownProblemCount(f!, recordsOf(f!.file, f!.text));
    }
    own[st.file] = [st.size, st.mtimeMs, st.ctimeMs, n];
    files.push({ file: st.file, records, ownLint: n });
  }
  return { summary: summarize(files, { maxEntriesPerDailyFile }), own };
}

/**
 * Stores the summary when memory/ or the limit changed since it was stored, and the summaries' line
 * counts (workspace/summary-lines.ts) when one changed (the caller holds the
 * index lock and has just refreshed the table, so the rows are read, not parsed).
 */
export async function refreshGovernance(workspace: string, maxEntriesPerDailyFile: number): Promise<void> {
  refreshSummaryLines(workspace);
  const listed = statedMemoryFiles(workspace);
  const filesDigest = filesDigestOf(listed);
  if (storedGovernanceIs(workspace, TABLE_DIR, filesDigest, maxEntriesPerDailyFile)) return;
  const { summary, own } = await compute(workspace, listed, maxEntriesPerDailyFile);
  writeOwnLint(workspace, TABLE_DIR, own);
  writeGovernance(workspace, TABLE_DIR, filesDigest, maxEntriesPerDailyFile, summary);
}

/** The summary of memory/ as it is now, computed (`mem status` when the stored one is stale). Writes nothing. */
export async function computeGovernance(
  workspace: string,
  listed: StatedMemoryFile[],
  maxEntriesPerDailyFile: number,
): Promise<GovernanceSummary> {
  return (await compute(workspace, listed, maxEntriesPerDailyFile)).summary;
}
