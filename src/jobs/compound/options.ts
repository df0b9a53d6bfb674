/**
 * What `mem compound` is asked (options) and answers (result), and how it reads a file it may find
 * missing: shared by the run, its planning inputs and `--revert`.
 */
import fs from 'node:fs';
import type { DateTime } from 'luxon';
import type { LoadedConfig } from '../../config/load.js';
import type { LlmSpending } from './llm-call.js';

export interface CompoundOptions {
  workspace: string;
  loaded: LoadedConfig;
  now: DateTime;
  week?: string;
  dryRun: boolean;
  useLlm: boolean;
  apiKey?: string;
  warn: (msg: string) => void;
}

export interface CompoundResult {
  week: string;
  changed: boolean;
  memoryLines: number;
  items: number;
  promoted: string[];
  demoted: string[];
  superseded: Array<{ id: string; file: string; by: string; reason: string }>;
  /** Entries an appended `retracts` named, flipped to retracted. */
  retracted: Array<{ id: string; file: string; by: string; reason: string }>;
  suspected: Array<{ a: string; b: string; score: number }>;
  /** Supersedes cycles among active entries: reported, never settled. */
  cycles: string[][];
  adoptedHandWritten: boolean;
  written: string[];
  previous: string | null;
  catchUp: { added: number; skipped: string | null } | null;
  /** The run's LLM spending (its catch-up's included), or null when no LLM is used. */
  llm: LlmSpending | null;
  dryRun: boolean;
  diff?: string;
}

export const read = (abs: string) => fs.promises.readFile(abs, 'utf8').catch(() => undefined);
