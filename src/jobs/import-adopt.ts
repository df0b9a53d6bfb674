/**
 * One item another memory holds, as `mem import` adopts it: its text, the kind and scope it gets, the
 * day it is dated by and the lines of the file it came from. Every reader of a host's memory (OpenClaw,
 * CLAUDE.md, Codex, Claude Code's auto memory) gives these; import.ts redacts, deduplicates and writes
 * them the same way whatever the host.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DateTime } from 'luxon';
import { isCalendarDay } from '../core/time.js';
import type { Kind } from '../entries/model.js';

export interface AdoptItem {
  /** Absolute path of the file the item is in. */
  file: string;
  text: string;
  /** A title the host gave it (a memory's `description`); else the text's first sentence. */
  title?: string;
  kind: Kind;
  scope?: string;
  /** The daily file it goes to (YYYY-MM-DD). */
  day: string;
  startLine: number;
  endLine: number;
  heading: string | null;
}

/** The kind a host's stated taste becomes. */
export const PREFERENCE: Kind = 'Preference';

/** Words that state a taste ("prefers terse answers"), not a rule of the work. */
export const TASTE = /\b(?:prefers?|preferred|preference|i(?:'d| would) rather|likes?|dislikes?|favou?rite|taste)\b/i;

/** What a reader of a host's memory gives import: the files it read (absolute), their items, one warning line per thing skipped. */
export interface HostImport {
  files: string[];
  items: AdoptItem[];
  warnings: string[];
}

/** Front-matter keys that may date a file. */
const DATE_KEYS = ['date', 'created', 'created_at', 'createdAt', 'updated', 'updated_at', 'updatedAt', 'timestamp'];

const dayIn = (s: string | undefined) => {
  const d = /(\d{4}-\d{2}-\d{2})/.exec(s ?? '')?.[1];
  return d && isCalendarDay(d) ? d : undefined;
};

/**
 * The day a host's file is dated by: a real day in its name (`2026-11-20.md`,
 * `2026-11-20T09-12-00-deploy.md`), else a date in its front matter, else its modification time in
 * the workspace's zone (the host wrote it then).
 */
export function fileDay(file: string, fields: Record<string, string>, zone: string): string {
  const named = dayIn(path.basename(file));
  if (named) return named;
  for (const k of DATE_KEYS) {
    const d = dayIn(fields[k]);
    if (d) return d;
  }
  return DateTime.fromMillis(fs.statSync(file).mtimeMs, { zone }).toISODate()!;
}
