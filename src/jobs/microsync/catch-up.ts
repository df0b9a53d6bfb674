/**
 * The microsync catch-up wrapup and compound run first (DESIGN §7), so the day's or week's late
 * sessions are in memory before it is summarised. Transcript warnings the scheduled microsync runs
 * already printed (malformed or untimed lines) are counted in one line instead of repeated.
 *
 * An LLM endpoint out of reach or refusing the key fails a microsync before it writes anything, its
 * cursors kept for the next run (README). The catch-up is then skipped with one warning instead of
 * failing the night's job, which goes on to its own rule-based fallback (docs/consolidation.md).
 */
import type { DateTime } from 'luxon';
import type { LoadedConfig } from '../../config/load.js';
import { isMemError } from '../../core/errors.js';
import type { LlmBudget } from '../../extract/llm-budget.js';
import { runMicrosync } from './run.js';
import { count } from '../../core/count.js';

export interface CatchUpOptions {
  workspace: string;
  loaded: LoadedConfig;
  now: DateTime;
  useLlm: boolean;
  apiKey?: string;
  /** The calling job's run budget, shared with the catch-up. */
  budget?: LlmBudget;
  warn: (msg: string) => void;
}

const REPEATED = /: malformed line skipped: |line\(s\) had no usable timestamp/;

/** The LLM failure a catch-up is skipped for, as its message; anything else is rethrown. */
function skipped(err: unknown, warn: (msg: string) => void): string {
  if (!isMemError(err) || err.code !== 'LLM') throw err;
  warn(`microsync catch-up skipped, nothing written: ${err.message}; the next microsync reads those sessions`);
  return err.message;
}

/**
 * A scheduled microsync whose files without a cursor are read back to `since` at least: turns a run
 * already processed are not read (nor sent to an LLM) again, which could word them anew as
 * duplicates. `skipped`: why it wrote nothing (its LLM endpoint failed), or null.
 */
export async function catchUp(
  opts: CatchUpOptions,
  since: DateTime,
): Promise<{ added: number; skipped: string | null }> {
  let repeated = 0;
  const warn = (msg: string) => (REPEATED.test(msg) ? repeated++ : opts.warn(msg));
  const r = await runMicrosync({
    workspace: opts.workspace,
    loaded: opts.loaded,
    now: opts.now,
    floor: since,
    dryRun: false,
    useLlm: opts.useLlm,
    ...(opts.apiKey ? { apiKey: opts.apiKey } : {}),
    ...(opts.budget ? { budget: opts.budget } : {}),
    warn,
  }).catch((err: unknown) => skipped(err, opts.warn));
  if (typeof r === 'string') return { added: 0, skipped: r };
  if (repeated)
    opts.warn(
      `microsync catch-up: ${count(repeated, 'transcript line warning')} (malformed or untimed lines; "mem microsync --since ..." lists them)`,
    );
  return { added: r.added.length, skipped: null };
}
