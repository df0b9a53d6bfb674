/**
 * The microsync catch-up wrapup and compound run first (DESIGN §7), so the day's or week's late
 * sessions are in memory before it is summarised. Transcript warnings the scheduled microsync runs
 * already printed (malformed or untimed lines) are counted in one line instead of repeated.
 */
import type { DateTime } from 'luxon';
import type { LoadedConfig } from '../../config/load.js';
import { runMicrosync } from './run.js';

export interface CatchUpOptions {
  workspace: string;
  loaded: LoadedConfig;
  now: DateTime;
  useLlm: boolean;
  apiKey?: string;
  warn: (msg: string) => void;
}

const REPEATED = /: malformed line skipped: |line\(s\) had no usable timestamp/;

/**
 * A scheduled microsync whose files without a cursor are read back to `since` at least: turns a run
 * already processed are not read (nor sent to an LLM) again, which could word them anew as
 * duplicates.
 */
export async function catchUp(opts: CatchUpOptions, since: DateTime): Promise<{ added: number }> {
  let repeated = 0;
  const warn = (msg: string) => (REPEATED.test(msg) ? repeated++ : opts.warn(msg));
  const r = await runMicrosync({
    workspace: opts.workspace, loaded: opts.loaded, now: opts.now, floor: since, dryRun: false, useLlm: opts.useLlm,
    ...(opts.apiKey ? { apiKey: opts.apiKey } : {}), warn,
  });
  if (repeated) opts.warn(`microsync catch-up: ${repeated} transcript line warning${repeated === 1 ? '' : 's'} (malformed or untimed lines; "mem microsync --since ..." lists them)`);
  return { added: r.added.length };
}
