/**
 * Reading the job log (job-log.ts writes it): `.mem/logs/jobs.jsonl` and its rotated files, one JSON
 * line per job run. What `mem status` and the daemon's failure report read; apart from the writer so
 * a read loads neither it nor what it brings (locks, allowances, node:crypto).
 *
 * Invariant: a torn or foreign line is skipped, never fatal, and a missing or unreadable file reads as
 * empty: a status always shows the runs it can read.
 */
import fs from 'node:fs';
import path from 'node:path';

export const JOB_LOG = '.mem/logs/jobs.jsonl';
export const JOB_LOG_KEEP = 2;

export type Outcome = 'ok' | 'failed' | 'timeout' | 'interrupted';
export type Trigger = 'manual' | 'daemon' | 'cron' | 'launchd';

export interface JobLogLine {
  job: string;
  trigger: Trigger;
  pid: number;
  start: string;
  end: string;
  durationMs: number;
  outcome: Outcome;
  exitCode: number;
  message?: string;
  counts: Record<string, number>;
  /** Workspace-relative Markdown files the run changed (at most 50 listed). */
  changed?: string[];
}

export function rotatedName(n: number): string {
  return n === 0 ? JOB_LOG : JOB_LOG.replace(/\.jsonl$/, `.${n}.jsonl`);
}

export function parseJobLog(text: string): JobLogLine[] {
  const out: JobLogLine[] = [];
  for (const raw of text.split('\n')) {
    if (!raw.trim()) continue;
    try {
      const v = JSON.parse(raw) as Partial<JobLogLine>;
      if (v && typeof v.job === 'string' && typeof v.outcome === 'string' && typeof v.end === 'string')
        out.push(v as JobLogLine);
    } catch {
      // A line torn by a crash or written by hand: skipped.
    }
  }
  return out;
}

/** Every line of the current and rotated logs, oldest first. */
export function readJobLog(workspace: string): JobLogLine[] {
  const lines: JobLogLine[] = [];
  for (let n = JOB_LOG_KEEP; n >= 0; n--) {
    const text = readOr(path.join(workspace, rotatedName(n)));
    if (text) lines.push(...parseJobLog(text));
  }
  return lines;
}

/** The last run of each job. */
export function lastRuns(lines: JobLogLine[]): Map<string, JobLogLine> {
  const out = new Map<string, JobLogLine>();
  for (const l of lines) out.set(l.job, l);
  return out;
}

function readOr(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
