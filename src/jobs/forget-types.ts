/** What `mem forget` is asked to do and what it reports (forget.ts runs it, forget-hard.ts removes). */
import type { DateTime } from 'luxon';
import type { LoadedConfig } from '../config/load.js';
import type { KeptMention } from './forget-plan.js';

export interface ForgetOptions {
  workspace: string;
  loaded: LoadedConfig;
  now: DateTime;
  ids: string[];
  hard: boolean;
  dryRun: boolean;
}

export interface ForgetResult {
  mode: 'soft' | 'hard';
  dryRun: boolean;
  ids: string[];
  /** Soft: the entries retracted in each file, by the status they had (`entries` > 1: copies sharing the id). */
  retracted: Array<{ id: string; file: string; from: string; entries: number }>;
  /** Soft: ids none of whose entries was left to retract. */
  alreadyRetracted: string[];
  /** Hard: ids whose entry an earlier `forget --hard` removed before it stopped; this run removes what still names them. */
  resumed: string[];
  files: FileChange[];
  /** Hard: lines inside other entries (or headings) that still name or quote a removed entry, left as they are. */
  kept: KeptLine[];
  derived: string[];
  /** Transcript windows purged from the archive tier (`.mem/archive/`), null without one. */
  archive: { docs: number; segments: number } | null;
  log: string | null;
  warnings: string[];
}

export interface FileChange {
  file: string;
  entries: number;
  lines: number;
}

/** A line naming or quoting a removed entry that hard forget leaves alone (see forget-plan.ts). */
export interface KeptLine extends Omit<KeptMention, 'after'> {
  /** `line` is in the file as the run leaves it (unchanged by a dry run). */
  file: string;
}
