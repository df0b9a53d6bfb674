/**
 * The job log: one JSON line per job run in `.mem/logs/jobs.jsonl` (DESIGN §7), whoever ran it — the
 * daemon, cron, launchd or a person. `mem status` reads the last line of each job from it.
 *
 * Lines are appended with O_APPEND in one write, so concurrent runs never interleave half lines; the
 * file is rotated (jobs.jsonl → jobs.1.jsonl → jobs.2.jsonl) past `limits.jobLogBytes`, so a daemon
 * left alone for months never grows it without bound. Reading it: job-log-read.ts.
 * Paths are checked against the caller's write allowance by the WorkspaceWriter before any write.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describeError, EXIT } from '../core/errors.js';
import type { Job } from '../write/allowance.js';
import { ensureDir } from '../write/atomic.js';
import { defaultLockOptions } from '../write/defaults.js';
import { WorkspaceWriter } from '../write/writer.js';
import { JOB_LOG, JOB_LOG_KEEP, rotatedName, type JobLogLine, type Trigger } from './job-log-read.js';

export {
  JOB_LOG,
  JOB_LOG_KEEP,
  lastRuns,
  parseJobLog,
  readJobLog,
  type JobLogLine,
  type Outcome,
  type Trigger,
} from './job-log-read.js';

export function triggerFromEnv(env: NodeJS.ProcessEnv = process.env): Trigger {
  const t = env.MEM_TRIGGER;
  return t === 'daemon' || t === 'cron' || t === 'launchd' ? t : 'manual';
}

/** The line of one run from `start` to `end`: every writer (job hook, daemon, search server) builds it here. */
export function jobLine(
  run: { job: string; trigger: Trigger; pid: number; start: Date; end: Date },
  result: Pick<JobLogLine, 'outcome' | 'exitCode' | 'message' | 'counts' | 'changed'>,
): JobLogLine {
  return {
    job: run.job,
    trigger: run.trigger,
    pid: run.pid,
    start: run.start.toISOString(),
    end: run.end.toISOString(),
    durationMs: run.end.getTime() - run.start.getTime(),
    outcome: result.outcome,
    exitCode: result.exitCode,
    ...(result.message ? { message: result.message } : {}),
    counts: result.counts,
    ...(result.changed?.length ? { changed: result.changed.slice(0, 50) } : {}),
  };
}

/**
 * Logs an `index` run made inside a long-lived process (the search server's for a client, `mem
 * watch`'s) as a `mem index` process logs its own. Counted as job-hook.ts counts an index run: it
 * looks at no Markdown. Never throws: a failure comes back as a one-line warning.
 */
export async function appendIndexRun(
  workspace: string,
  maxBytes: number,
  run: { trigger: Trigger; pid: number; start: Date; end: Date },
  failure?: { exitCode: number; message: string },
): Promise<string | undefined> {
  const result = failure ? { outcome: 'failed' as const, ...failure } : { outcome: 'ok' as const, exitCode: EXIT.ok };
  try {
    await appendJobLog(
      workspace,
      jobLine({ job: 'index', ...run }, { ...result, counts: { filesChanged: 0, entriesAdded: 0 } }),
      maxBytes,
    );
    return undefined;
  } catch (err) {
    return `could not append to the job log: ${describeError(err)}`;
  }
}

/** Appends one line; `writer` decides whether this job may write there (`.mem/` is allowed to every job that runs). */
export async function appendJobLog(
  workspace: string,
  line: JobLogLine,
  maxBytes: number,
  job: Job = 'index',
): Promise<void> {
  const writer = new WorkspaceWriter(workspace, job, defaultLockOptions());
  const file = writer.resolve(JOB_LOG);
  await ensureDir(path.dirname(file));
  const size = await fs.promises.stat(file).then(
    (s) => s.size,
    () => 0,
  );
  if (size > maxBytes) await rotate(writer);
  await fs.promises.appendFile(file, JSON.stringify(line) + '\n', { flag: 'a' });
}

async function rotate(writer: WorkspaceWriter): Promise<void> {
  // Oldest first; a rival process rotating at the same moment makes a rename fail with ENOENT, which is fine.
  for (let n = JOB_LOG_KEEP; n >= 1; n--) {
    await fs.promises.rename(writer.resolve(rotatedName(n - 1)), writer.resolve(rotatedName(n))).catch(() => {});
  }
}
