/**
 * What `mem wrapup` is asked (options, and the day they name) and answers (result): shared by the
 * run and the command that prints it. The day must have begun by `--now`: a wrap-up of a day still
 * to come would be empty, and its front matter would mark it done.
 */
import { DateTime } from 'luxon';
import type { LoadedConfig } from '../../config/load.js';
import { MemError } from '../../core/errors.js';
import type { LlmSpending } from '../compound/llm-call.js';
import type { SectionKey } from './sections.js';

export const WRAPUP_GENERATOR = 'memfold wrapup 1';

export interface WrapupOptions {
  workspace: string;
  loaded: LoadedConfig;
  now: DateTime;
  date?: string;
  useLlm: boolean;
  apiKey?: string;
  dryRun?: boolean;
  warn: (msg: string) => void;
}

export interface WrapupResult {
  date: string;
  /** No entry and no session but bots' that day: nothing was written. */
  idle: boolean;
  files: string[];
  written: string[];
  unchanged: string[];
  keptEdited: string[];
  sessions: string[];
  skippedSessions: Array<{ sessionId: string; path: string; reason: string }>;
  counts: Record<SectionKey, number>;
  generator: string;
  catchUp: { added: number; skipped: string | null } | null;
  /** The run's LLM spending (its catch-up's included), or null when no LLM is used. */
  llm: LlmSpending | null;
  redacted: number;
  dryRun: boolean;
  /** Dry run: the files' text. */
  preview?: Array<{ file: string; text: string }>;
}

export function resolveDay(date: string | undefined, now: DateTime): string {
  if (date === undefined) return now.minus({ days: 1 }).toISODate()!;
  const d = /^\d{4}-\d{2}-\d{2}$/.test(date) ? DateTime.fromISO(date, { zone: now.zone }) : undefined;
  if (!d?.isValid)
    throw new MemError('INVALID_DATE', `--date "${date}" is not a calendar date (YYYY-MM-DD, e.g. 2026-11-21)`);
  if (d.startOf('day') > now)
    throw new MemError(
      'USAGE',
      `--date ${date} is after --now (${now.toISO()}): a day can only be wrapped up once it has begun`,
    );
  return date;
}
