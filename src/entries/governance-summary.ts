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
  /** Each daily file holding entries, with how many, in file order. */
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
  return { dailyEntries: [...perDaily].map(([path, value]) => ({ path, value })), conflicts, conflictCount: conflicts.length, suspected, lint: own + crossProblemCount(records, opts) };
}

/** A summary as JSON gave it back, checked before it is trusted. */
export const isConflictList = (c: unknown): c is Conflict[] => Array.isArray(c) && c.every((k) => k && typeof k.reason === 'string' && Array.isArray(k.ids) && k.ids.every((id: unknown) => typeof id === 'string'));

export function isSummary(x: unknown): x is GovernanceSummary {
  const v = x as Partial<GovernanceSummary> | undefined;
  return !!v && typeof v.lint === 'number' && typeof v.conflictCount === 'number' && isConflictList(v.conflicts) && isConflictList(v.suspected)
    && Array.isArray(v.dailyEntries) && v.dailyEntries.every((d) => d && typeof d.path === 'string' && typeof d.value === 'number');
}
