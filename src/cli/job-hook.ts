/**
 * Every job run, by the daemon or by hand, leaves one line in the job log (DESIGN §7). Rather than
 * each job command doing it, the CLI entry instruments the job commands once: a preAction hook
 * records the start and what the Markdown looked like; the postAction hook (success) or the entry's
 * error path (failure) appends the line, runs `onFailure` on a failure and `git.autoCommit` on a
 * success. A run whose configuration does not load still logs its failure (with the default log
 * size); onFailure and autoCommit, which that configuration names, are left out. Under the daemon
 * (MEM_TRIGGER=daemon) onFailure is the daemon's, for every run it starts (src/daemon/run.ts): so it
 * runs once, also for a run that could not read its configuration. A run killed by a signal cannot
 * write its own line: the daemon writes it instead. A usage error (exit 2: a bad flag value, an
 * invalid date) refused the command line before the job began, so it is no run and leaves no line,
 * as commander's own usage errors (an unknown option) never reach the preAction hook: otherwise
 * `status --strict` would report the job failed until its next good run.
 */
import type { Command } from 'commander';
import { JOB_COMMANDS } from './commands.js';
import type { GlobalOptions } from './context.js';
import { loadConfigLean } from '../config/lean.js';
import type { LoadedConfig } from '../config/load.js';
import { quickConfig } from '../config/quick.js';
import { describeError, EXIT, exitCodeOf, isMemError } from '../core/errors.js';
import { autoCommit, commitMessage } from '../git/auto-commit.js';
import { appendJobLog, jobLine, triggerFromEnv } from '../runlog/job-log.js';
import { clearRunning, markRunning } from '../runlog/running-marker.js';
import { JOBS, type Job } from '../write/allowance.js';
import { WorkspaceWriter } from '../write/writer.js';
import { defaultLockOptions } from '../write/defaults.js';
import { locateWorkspace } from '../workspace/locate.js';
import { diffMarkdown, keepSnapshot, keptSnapshot, snapshotMarkdown, type MdSnapshot } from '../daemon/md-snapshot.js';
import { runOnFailure } from '../daemon/on-failure.js';

interface PendingRun {
  job: string;
  workspace: string;
  /** Undefined when the configuration did not load (the command fails with that error). */
  loaded: LoadedConfig | undefined;
  start: Date;
  before: MdSnapshot;
  marker: string | undefined;
}

let pending: PendingRun | undefined;
const reported: Record<string, number> = {};

/** A job may add its own counts to its log line (e.g. `{ entriesAdded: 3 }`); they win over the measured ones. */
export function reportJobCounts(counts: Record<string, number>): void {
  Object.assign(reported, counts);
}

export function instrumentJobCommands(program: Command): void {
  for (const cmd of program.commands) {
    if (!JOB_COMMANDS.has(cmd.name())) continue;
    cmd.hook('preAction', async (_self, action) => beginJobRun(action));
    cmd.hook('postAction', async () => {
      await finishJobRun(undefined);
    });
  }
}

function writerJob(job: string): Job {
  return (JOBS as readonly string[]).includes(job) ? (job as Job) : 'index';
}

/**
 * Jobs whose allowance holds no Markdown file (DESIGN §2: index writes only `.mem/`): nothing to
 * diff, so their runs skip the before/after look, which reads every Markdown file (about a second
 * at 10,000 files, most of a one-file `mem index`).
 */
const NO_MARKDOWN_JOBS: ReadonlySet<string> = new Set(['index']);

/** `known`: the look before (for the look after); without it, the last run's kept look (md-snapshot.ts). */
const snapshot = (job: string, workspace: string, known?: MdSnapshot): MdSnapshot =>
  NO_MARKDOWN_JOBS.has(job) ? new Map() : snapshotMarkdown(workspace, known ?? keptSnapshot(workspace));

async function beginJobRun(action: Command): Promise<void> {
  const o = action.optsWithGlobals<GlobalOptions & { dryRun?: boolean }>();
  if (o.dryRun) return;
  await startJobRun(action.name(), o.workspace);
}

/** Records the start of a job run (also called by the lean entry, which has no commander hooks). */
export async function startJobRun(job: string, workspaceOption: string | undefined): Promise<void> {
  let workspace: string;
  try {
    workspace = locateWorkspace(workspaceOption);
  } catch {
    return; // The command itself reports the missing workspace; there is no job log to write to.
  }
  // A bad configuration: the command reports it, and its failure is logged all the same.
  const loaded = await loadConfigLean(workspace).catch(() => undefined);
  const start = new Date();
  const writer = new WorkspaceWriter(workspace, writerJob(job), defaultLockOptions(loaded?.config));
  const marker = markRunning(writer, { job, pid: process.pid, trigger: triggerFromEnv(), start });
  pending = { job, workspace, loaded, start, before: snapshot(job, workspace), marker };
}

/** Called with the error of a failed run, or undefined after a successful one. */
export async function finishJobRun(err: unknown): Promise<void> {
  const run = pending;
  pending = undefined;
  if (!run) return;
  clearRunning(run.marker);
  if (err !== undefined && exitCodeOf(err) === EXIT.usage) return;
  const after = snapshot(run.job, run.workspace, run.before);
  const d = diffMarkdown(run.before, after);
  // Kept for the next run's before-look only by a run that wrote Markdown: a failed or idle run writes nothing.
  if (err === undefined && d.changed.length) keepSnapshot(run.workspace, after);
  const counts = {
    filesChanged: d.changed.length,
    entriesAdded: d.entriesAdded,
    ...(d.entriesRemoved ? { entriesRemoved: d.entriesRemoved } : {}),
    ...reported,
  };
  const failed = err !== undefined;
  const message = failed ? (isMemError(err) && err.logged) || describeError(err) : undefined;
  const line = jobLine(
    { job: run.job, trigger: triggerFromEnv(), pid: process.pid, start: run.start, end: new Date() },
    {
      outcome: failed ? 'failed' : 'ok',
      exitCode: failed ? exitCodeOf(err) : EXIT.ok,
      message,
      counts,
      changed: d.changed,
    },
  );
  const config = run.loaded?.config;
  try {
    // quickConfig({}): the defaults, for a run whose configuration did not load.
    await appendJobLog(run.workspace, line, (config ?? quickConfig({})!).limits.jobLogBytes, writerJob(run.job));
  } catch (e) {
    process.stderr.write(`warning: could not append to the job log: ${describeError(e)}\n`);
  }
  if (!config) return;
  if (failed && config.onFailure && triggerFromEnv() !== 'daemon') {
    const r = await runOnFailure(config.onFailure, run.job, message ?? 'failed', run.workspace);
    if (r.code !== 0)
      process.stderr.write(
        `warning: onFailure command ${r.timedOut ? 'timed out' : `failed (${r.error ?? `exit ${r.code}`})`}\n`,
      );
  }
  if (!failed && config.git.autoCommit && d.changed.length) {
    const r = await autoCommit(run.workspace, d.changed, commitMessage(run.job, counts, d.changed));
    if (!r.committed) process.stderr.write(`warning: git.autoCommit skipped: ${r.reason}\n`);
  }
}
