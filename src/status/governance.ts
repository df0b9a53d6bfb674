/**
 * Governance checks with thresholds (DESIGN §1, §8), pure: measured values in, checks out. Each check
 * is a `problem` (counts for `mem status --strict`) or a `notice` (shown, never fails a run).
 */
import type { Config } from '../config/schema.js';
import type { Conflict } from './conflicts.js';
import { count } from '../core/count.js';

export interface Check {
  name: 'memoryLines' | 'dailyEntries' | 'summaryLines' | 'conflicts' | 'suspectedConflicts' | 'lint';
  value: number;
  limit: number;
  ok: boolean;
  level: 'problem' | 'notice';
  message: string;
  /** Files over the limit, for file-size checks. */
  files?: Array<{ path: string; value: number }>;
}

export interface GovernanceInput {
  memoryLines: number;
  dailyEntries: Array<{ path: string; value: number }>;
  summaryLines: Array<{ path: string; value: number }>;
  /** At least the first 3 certain conflicts (for the message). */
  conflicts: Conflict[];
  conflictCount: number;
  suspected: Conflict[];
  /** How many lint problems (entries/lint.ts). */
  lint: number;
}

const max = (xs: Array<{ value: number }>) => xs.reduce((m, x) => Math.max(m, x.value), 0);

export function governanceChecks(input: GovernanceInput, limits: Config['limits']): Check[] {
  const overDaily = input.dailyEntries.filter((f) => f.value > limits.entriesPerDailyFile);
  const overSummary = input.summaryLines.filter((f) => f.value >= limits.summaryLines);
  return [
    {
      name: 'memoryLines',
      value: input.memoryLines,
      limit: limits.memoryLines,
      ok: input.memoryLines <= limits.memoryLines,
      level: 'problem',
      message: `MEMORY.md has ${input.memoryLines} lines (at most ${limits.memoryLines}; compound rewrites it)`,
    },
    {
      name: 'dailyEntries',
      value: max(input.dailyEntries),
      limit: limits.entriesPerDailyFile,
      ok: !overDaily.length,
      level: 'problem',
      files: overDaily,
      message: overDaily.length
        ? `${count(overDaily.length, 'daily file')} over ${limits.entriesPerDailyFile} entries: ${overDaily.map((f) => `${f.path} (${f.value})`).join(', ')} — "mem status --fix" splits them`
        : `daily files at most ${max(input.dailyEntries)} entries (limit ${limits.entriesPerDailyFile})`,
    },
    {
      name: 'summaryLines',
      value: max(input.summaryLines),
      limit: limits.summaryLines,
      ok: !overSummary.length,
      level: 'problem',
      files: overSummary,
      message: overSummary.length
        ? `${count(overSummary.length, 'summary file')} at ${limits.summaryLines} lines or more: ${overSummary.map((f) => `${f.path} (${f.value})`).join(', ')} — "mem status --fix" splits them into volumes`
        : `summaries at most ${max(input.summaryLines)} lines (under ${limits.summaryLines})`,
    },
    {
      name: 'conflicts',
      value: input.conflictCount,
      limit: 0,
      ok: !input.conflictCount,
      level: 'problem',
      message: input.conflictCount
        ? `${input.conflictCount} conflicting active entr${input.conflictCount === 1 ? 'y pair' : 'y groups'}: ${input.conflicts
            .slice(0, 3)
            .map((c) => c.reason)
            .join('; ')}`
        : 'no conflicting active entries',
    },
    {
      name: 'suspectedConflicts',
      value: input.suspected.length,
      limit: 0,
      ok: !input.suspected.length,
      level: 'notice',
      message: input.suspected.length
        ? `${count(input.suspected.length, 'suspected conflict')} (similar active entries): ${input.suspected
            .slice(0, 3)
            .map((c) => c.ids.join(' ~ '))
            .join('; ')}`
        : 'no suspected conflicts',
    },
    {
      name: 'lint',
      value: input.lint,
      limit: 0,
      ok: !input.lint,
      level: 'problem',
      message: input.lint ? `${count(input.lint, 'lint problem')} (see "mem lint")` : 'lint clean',
    },
  ];
}
