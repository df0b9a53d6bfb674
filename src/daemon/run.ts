/**
 * `mem daemon`: runs the schedule (node-cron, in the configured time zone), each job as a child with
 * a time limit, and keeps the index fresh, until SIGINT/SIGTERM. A failed or stopped run never stops
 * the daemon: it is logged (a child logs its own failure; a run the daemon had to stop is logged by
 * the daemon, since the child could not) and `onFailure` is run. It also hosts the resident search
 * server (src/search/server/) for as long as it runs.
 */
import type { ScheduledTask } from 'node-cron';
import type { LoadedConfig } from '../config/load.js';
import { appendJobLog, jobLine, type JobLogLine } from '../jobs/job-log.js';
import { effectiveSchedule, jobTimeoutMs, nextRuns, type ScheduledJob } from '../schedule/jobs.js';
import { scheduleJobs } from './cron-tasks.js';
import { startChild, type ChildOutcome, type RunningChild } from './child.js';
import { startIndexRefresh, type IndexRefresh } from './index-refresh.js';
import { runOnFailure } from './on-failure.js';
import { takePidFile } from './pidfile.js';
import { JobQueue } from './queue.js';

export interface DaemonIo {
  line(text: string): void;
  warn(text: string): void;
  info(text: string): void;
}

export interface DaemonOptions {
  workspace: string;
  loaded: LoadedConfig;
  io: DaemonIo;
  /** Resolves when the daemon should stop (the command wires SIGINT/SIGTERM to it). */
  stopSignal: Promise<string>;
}

export function describeOutcome(o: ChildOutcome, timeoutMs: number): { outcome: JobLogLine['outcome']; message: string } {
  if (o.stoppedFor === 'timeout') return { outcome: 'timeout', message: `${o.job} exceeded its time limit of ${Math.round(timeoutMs / 1000)}s and was stopped (${o.signal ?? `exit ${o.code}`})` };
  if (o.stoppedFor === 'shutdown') return { outcome: 'interrupted', message: `${o.job} was stopped because the daemon shut down` };
  if (o.signal) return { outcome: 'interrupted', message: `${o.job} was killed by ${o.signal}` };
  if (o.code === 0) return { outcome: 'ok', message: '' };
  return { outcome: 'failed', message: o.stderrTail.at(-1)?.replace(/^mem:\s*/, '') ?? `exit ${o.code}` };
}

export async function runDaemon(o: DaemonOptions): Promise<void> {
  const { workspace, loaded, io } = o;
  const { config, zone } = loaded;
  const schedule: ScheduledJob[] = effectiveSchedule(config);
  const releasePid = takePidFile(workspace);
  const children = new Map<string, RunningChild>();
  let indexDisabled = !config.daemon.index;

  const runJob = async (job: string): Promise<void> => {
    const timeoutMs = jobTimeoutMs(config, job);
    io.info(`daemon: starting ${job}`);
    const child = startChild({ workspace, job, timeoutMs, killGraceMs: config.daemon.killGraceMs, onLine: (l) => io.info(`[${job}] ${l}`) });
    children.set(job, child);
    const outcome = await child.done;
    children.delete(job);
    const secs = ((outcome.end.getTime() - outcome.start.getTime()) / 1000).toFixed(1);
    const { outcome: kind, message } = describeOutcome(outcome, timeoutMs);
    if (job === 'index' && outcome.code === 2 && outcome.stderrTail.some((l) => /unknown command/i.test(l))) {
      indexDisabled = true;
      io.warn('daemon: this memfold has no "mem index" command; index refresh is off');
      return;
    }
    io.line(`daemon: ${job} ${kind}${message ? `: ${message}` : ''} (${secs}s)`);
    if (!outcome.stoppedFor && !outcome.signal) return; // The child logged its own line and ran onFailure.
    const line = jobLine({ job, trigger: 'daemon', pid: outcome.pid, start: outcome.start, end: outcome.end }, { outcome: kind, exitCode: 3, message, counts: {} });
    await appendJobLog(workspace, line, config.limits.jobLogBytes).catch((e: Error) => io.warn(`daemon: could not write the job log: ${e.message}`));
    if (config.onFailure) await runOnFailure(config.onFailure, job, message, workspace);
  };

  const queue = new JobQueue(runJob, (job, why) => io.info(`daemon: ${job} not started: ${why}`));
  const tasks: ScheduledTask[] = scheduleJobs(schedule, zone, (job) => queue.request(job));
  let refresh: IndexRefresh | undefined;
  if (!indexDisabled) {
    refresh = startIndexRefresh(workspace, config.extraPaths, config.daemon.debounceMs, config.daemon.refreshMs, () => {
      if (!indexDisabled) queue.request('index');
    });
  }
  // The resident search server answers `mem search` while the daemon runs (a child that never outlives it).
  const server = import('../search/server/host.js').then((m) => m.hostSearchServer(workspace, 'daemon')).then((s) => {
    io.info('hosted' in s ? `daemon: search server on ${s.hosted.address} (pid ${s.hosted.pid})` : `daemon: ${s.note}`);
    return s;
  });
  const now = new Date();
  io.line(`daemon: pid ${process.pid} on ${workspace} (${zone}); ${schedule.map((s) => `${s.job} "${s.cron}" next ${nextRuns(s.cron, zone, now)[0]!.toISOString()}`).join('; ') || 'no jobs scheduled'}${indexDisabled ? '' : `; index refresh ${config.daemon.debounceMs}ms after a change, every ${config.daemon.refreshMs}ms`}`);

  const why = await o.stopSignal;
  io.line(`daemon: ${why}: stopping${children.size ? ` (${[...children.keys()].join(', ')} running: stopping it safely)` : ''}`);
  queue.stop();
  for (const t of tasks) await t.destroy();
  await refresh?.close();
  await server.then((s) => ('hosted' in s ? s.hosted.stop() : undefined));
  for (const c of children.values()) c.stop('shutdown');
  const deadline = Date.now() + config.daemon.killGraceMs + 2_000;
  while (!queue.idle() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  releasePid();
  io.line('daemon: stopped');
}
