/**
 * What `mem status` shows of memory/'s entries (its governance checks' inputs), pure: entries per
 * daily file, certain and suspected conflicts (active-conflicts.ts) and the number of lint problems
 * (lint.ts: each file's own count plus what depends on other entries). It reads only the fields the
 * entry table holds (table.ts), so the summary of the table's rows equals the summary of every file
 * parsed: the entry table's refresh stores it (table-store.ts) and `mem status` reads it back.
 */
import { DAILY_FILE } from '../write/allowance.js';
import { findConflicts, type Conflict } from './active-conflicts.js';
import { crossProblemCount } from './lint.js';
import type { EntryRecord } from './store.js';

export interface GovernanceSummary {
  /**
   * The daily files over the limit and the (first) fullest one, with how many entries, in file order:
   * all the dailyEntries check shows (its value is the largest count, its files those over the limit),
   * and a stored summary of 10,000 files stays small (it is read by every `mem status`).
   */
  dailyEntries: Array<{ path: string; value: number }>;
  /** Every certain conflict, or only the first 3 when read without the list (governance-store.ts). */
  conflicts: Conflict[];
  conflictCount: number;
  suspected: Conflict[];
  /** lintEntries(...).length. */
  lint: number;
}

/** A memory file's entries and its own lint problem count (lint.ts ownProblemCount). */
export interface SummaryFile {
  file: string;
  records: EntryRecord[];
  ownLint: number;
}

export function summarize(files: SummaryFile[], opts: { maxEntriesPerDailyFile: number }): GovernanceSummary {
  const records = files.flatMap((f) => f.records);
  const { conflicts, suspected } = findConflicts(records);
  const perDaily = new Map<string, number>();
  for (const r of records) if (DAILY_FILE.test(r.file)) perDaily.set(r.file, (perDaily.get(r.file) ?? 0) + 1);
  const own = files.reduce((n, f) => n + f.ownLint, 0);
  let fullest = [...perDaily.values()].reduce((m, n) => Math.max(m, n), 0);
  const shown = [...perDaily].filter(([, n]) => {
    if (n > opts.maxEntriesPerDailyFile) return true;
    if (n !== fullest) return false;
    fullest = Infinity; // the first fullest only
    return true;
  });
  return {
    dailyEntries: shown.map(([path, value]) => ({ path, value })),
    conflicts,
    conflictCount: conflicts.length,
    suspected,
    lint: own + crossProblemCount(records, opts),
  };
}
