/**
 * Reading and adding to the weekly logs (`memory/archive/weekly-YYYY-Www.md`, DESIGN §1, §5): compound
 * logs its status flips there, and so do `mem forget` and `mem restore`, so `mem trace` finds every
 * change of an entry's status in one place.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { DateTime } from 'luxon';
import { appendRun, logHeader, weeklyLogFile } from './weekly-log-file.js';
import { splitLines } from '../entries/parse.js';
import { regularFile } from '../core/regular-file.js';
import { idMention } from './id-match.js';

export interface LogHit {
  file: string;
  line: number;
  /** The `## Run <label>` the line belongs to, if any. */
  run: string | null;
  text: string;
}

export const WEEKLY = /^weekly-\d{4}-W\d{2}\.md$/;

export async function listWeeklyLogs(workspace: string): Promise<string[]> {
  const names = await fs.promises.readdir(path.join(workspace, 'memory', 'archive')).catch(() => [] as string[]);
  return names
    .filter((n) => WEEKLY.test(n) && regularFile(path.join(workspace, 'memory', 'archive', n)))
    .sort()
    .map((n) => `memory/archive/${n}`);
}

/** Lines of a log text naming `id` (as a whole id: `X` does not match `X-2`). */
export function logLinesNaming(file: string, text: string, id: string): LogHit[] {
  const re = idMention(id);
  const hits: LogHit[] = [];
  let run: string | null = null;
  splitLines(text).forEach((raw, i) => {
    const line = raw.replace(/\r?\n$/, '');
    const m = /^##\s+Run\s+(.*)$/.exec(line);
    if (m) run = m[1]!.trim();
    else if (re.test(line)) hits.push({ file, line: i + 1, run, text: line.replace(/^[-*+]\s+/, '') });
  });
  return hits;
}

export async function findLogLines(workspace: string, id: string): Promise<LogHit[]> {
  const out: LogHit[] = [];
  for (const file of await listWeeklyLogs(workspace)) {
    const text = await fs.promises.readFile(path.join(workspace, file), 'utf8').catch(() => '');
    out.push(...logLinesNaming(file, text, id));
  }
  return out;
}

/** The log of the ISO week holding `now` (in the configured zone): its path and the header a new one starts with. */
export function weeklyLogOf(now: DateTime): { file: string; header: string } {
  const label = `${now.weekYear}-W${String(now.weekNumber).padStart(2, '0')}`;
  const start = now.startOf('week');
  return {
    file: weeklyLogFile(label),
    header: logHeader(label, start.toISODate()!, start.plus({ days: 6 }).toISODate()!),
  };
}

export { appendRun };
