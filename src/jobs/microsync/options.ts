/**
 * What `mem microsync` is asked (options) and answers (result): the command prints the result, a
 * catch-up (wrapup, compound) runs microsync with a floor and a shared LLM budget and reads it.
 */
import type { DateTime } from 'luxon';
import type { LoadedConfig } from '../../config/load.js';
import type { LlmBudget } from '../../extract/llm-budget.js';
import type { Plan } from './plan.js';

export interface MicrosyncOptions {
  workspace: string;
  loaded: LoadedConfig;
  now: DateTime;
  since?: string;
  /**
   * Without `since`: a file without a cursor is read back to here at least (the window a wrapup or
   * compound catch-up must cover); files with a cursor go on from it, as in any scheduled run.
   */
  floor?: DateTime;
  source?: string;
  dryRun: boolean;
  /** Use the configured LLM (default when one is configured). */
  useLlm: boolean;
  apiKey?: string;
  /** The budget of a larger run this microsync is part of (a catch-up); default: a run of its own. */
  budget?: LlmBudget;
  warn: (msg: string) => void;
  progress?: (msg: string) => void;
}

export interface MicrosyncResult {
  sources: number;
  files: number;
  sessions: number;
  turns: number;
  bytesRead: number;
  malformed: number;
  redacted: number;
  candidates: number;
  plan: Plan;
  added: Array<{ id: string; file: string }>;
  skippedSessions: Array<{ path: string; reason: string }>;
  /**
   * What the window left out (DESIGN §4: the first run reads the last 24 hours): turns dated before
   * it in the files read, and transcripts untouched since it opened, not opened at all. Neither is
   * in `turns`; `backfill` is the command that reads them, when there are any.
   */
  outside: { turns: number; files: number };
  /** The window's start for a file without a cursor (null: every turn); firstRun: no cursor yet. */
  window: { start: string | null; firstRun: boolean };
  backfill: string | null;
  /** Configured sources whose path does not exist: warned about, the others read (all missing: an error). */
  missingSources: Array<{ source: string; path: string }>;
  /** The counts per configured source, for `-v`. */
  bySource: SourceCounts[];
  llm: {
    calls: number;
    tokens: number;
    estimatedCalls: number;
    estimatedTokens: number;
    stoppedByBudget: boolean;
  } | null;
  dryRun: boolean;
}

export interface SourceCounts {
  source: string;
  files: number;
  sessions: number;
  turns: number;
  outsideTurns: number;
  outsideFiles: number;
}
