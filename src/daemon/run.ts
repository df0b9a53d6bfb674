/**
 * `mem daemon`: runs the schedule (node-cron, in the configured time zone), each job as a child with
 * a time limit, and keeps the index fresh, until SIGINT/SIGTERM. A failed or stopped run never stops
 * the daemon: it is logged and `onFailure` is run (failure-report.ts), from the configuration as it
 * reads now or, when that no longer loads, as it last loaded. It also hosts the resident search
 * server (src/search/server/) for as long as it runs.
 */
import path from 'node:path';
import type { ScheduledTask } from 'node-cron';
import { loadConfig, type LoadedConfig } from '../config/load.js';
import type { Config } from '../config/schema.js';
import type { JobLogLine } from '../runlog/job-log.js';
import { clearRunning, markerPath } from '../runlog/running-marker.js';
import { effectiveSchedule, jobTimeoutMs, nextRuns, type ScheduledJob } from '../schedule/jobs.js';
import { scheduleJobs } from './cron-tasks.js';
import { startChild, type ChildOutcome, type RunningChild } from './child.js';
import { reportFailure } from './failure-report.js';
import { startIndexRefresh, type IndexRefresh } from './index-refresh.js';
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

export function describeOutcome(
  o: ChildOutcome,
  timeoutMs: number,
): { outcome: JobLogLine['outcome']; message: string } {
  if (o.stoppedFor === 'timeout')
    return {
      outcome: 'timeout',
      message: `${o.job} exceeded its time limit of ${Math.round(timeoutMs / 1000)}s and was stopped (${o.signal ?? `exit ${o.code}`})`,
    };
  if (o.stoppedFor === 'shutdown')
    return { outcome: 'interrupted', message: `${o.job} was stopped because the daemon shut down` };
  if (o.signal) return { outcome: 'interrupted', message: `${o.job} was killed by ${o.signal}` };
  if (o.code === 0) return { outcome: 'ok', message: '' };
  return { outcome: 'failed', message: o.stderrTail.at(-1)?.replace(/^mem:\s*/, '') ?? `exit ${o.code}` };
}

export async function runDaemon(o: DaemonOptions): Promise<void> {
  const { workspace, loaded, io } = o;
  const { config, zone } = loaded;
  const schedule: ScheduledJob[] = effectiveSchedule(config);
  const releasePid = await takePidFile(workspace);
  const children = new Map<string, RunningChild>();
  let indexDisabled = !config.daemon.index;
  let lastLoaded: Config = config;
  /** The configuration as it reads now, or as it last loaded (a run fails on a broken one: it is reported all the same). */
  const currentConfig = (): Config => {
    try {
      lastLoaded = loadConfig(workspace).config;
    } catch {
      // Broken now: the last one that loaded.
    }
    return lastLoaded;
  };

  const runJob = async (job: string): Promise<void> => {
    const timeoutMs = jobTimeoutMs(config, job);
    io.info(`daemon: starting ${job}`);
    const child = startChild({
      workspace,
      job,
      timeoutMs,
      killGraceMs: config.daemon.killGraceMs,
      onLine: (l) => io.info(`[${job}] ${l}`),
    });
    children.set(job, child);
    const outcome = await child.done;
    children.delete(job);
    // A child stopped by a signal had no chance to remove its running marker (one that ended removed it).
    clearRunning(path.join(workspace, markerPath(job, outcome.pid)));
    const secs = ((outcome.end.getTime() - outcome.start.getTime()) / 1000).toFixed(1);
    const described = describeOutcome(outcome, timeoutMs);
    const { outcome: kind, message } = described;
    if (job === 'index' && outcome.code === 2 && outcome.stderrTail.some((l) => /unknown command/i.test(l))) {
      indexDisabled = true;
      io.warn('daemon: this memfold has no "mem index" command; index refresh is off');
      return;
    }
    io.line(`daemon: ${job} ${kind}${message ? `: ${message}` : ''} (${secs}s)`);
    if (kind !== 'ok') await reportFailure(workspace, outcome, described, currentConfig(), io.warn);
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
  const server = import('../search/server/host.js')
    .then((m) => m.hostSearchServer(workspace, 'daemon'))
    .then((s) => {
      io.info(
        'hosted' in s ? `daemon: search server on ${s.hosted.address} (pid ${s.hosted.pid})` : `daemon: ${s.note}`,
      );
      return s;
    });
  const now = new Date();
  io.line(
    `daemon: pid ${process.pid} on ${workspace} (${zone}); ${schedule.map((s) => `${s.job} "${s.cron}" next ${nextRuns(s.cron, zone, now)[0]!.toISOString()}`).join('; ') || 'no jobs scheduled'}${indexDisabled ? '' : `; index refresh ${config.daemon.debounceMs}ms after a change, every ${config.daemon.refreshMs}ms`}`,
  );

  const why = await o.stopSignal;
  io.line(
    `daemon: ${why}: stopping${children.size ? ` (${[...children.keys()].join(', ')} running: stopping it safely)` : ''}`,
  );
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
