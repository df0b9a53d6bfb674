/**
 * Gathers everything `mem status` shows (docs/operations.md has the JSON schema). Read-only
 * (DESIGN §9.4): it reads the job log, lock folders, running markers, the daemon's pid file,
 * the entry table and the Markdown files it is behind on (entries/table-store.ts), and writes nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { LoadedConfig } from '../config/load.js';
import { describeError } from '../core/errors.js';
import { readStoredGovernance } from '../entries/governance-store.js';
import { filesDigestOf, statedMemoryFiles } from '../entries/heads-store.js';
import { TABLE_DIR } from '../entries/table-store.js';
import { lastRuns, readJobLog, type JobLogLine } from '../runlog/job-log-read.js';
import { readDaemonPid } from '../daemon/pid-read.js';
import { RUNNING_DIR } from '../runlog/running-marker.js';
import { SCHEDULED_JOBS } from '../config/jobs.js';
import { effectiveSchedule, nextRuns } from '../schedule/jobs.js';
import { installedJobs, type InstalledJobs } from '../schedule/installed.js';
import { isLocked, LOCK_DIR } from '../write/locks.js';
import type { Conflict } from './conflicts.js';
import { governanceChecks, type Check } from './governance.js';
import { indexFreshness, type IndexStatus } from './index-freshness.js';
import { pidAlive } from '../core/process.js';
import { archiveStatus, type ArchiveStatus } from '../archive/status.js';
import { missingMergeRules } from './merge-rules.js';
import { sourceStatuses, type SourceStatus } from './sources.js';
import { lineCount, summaryLines } from '../workspace/summary-lines.js';
import type { ModelCheck } from '../search/embed/model-check.js';
import { readModelCheck } from '../search/embed/model-check-file.js';

export type ScheduledBy = 'daemon' | 'cron' | 'launchd';

export interface RunningJob {
  job: string;
  pid: number;
  trigger: string;
  start: string;
}

export interface StatusReport {
  workspace: {
    path: string;
    zone: string;
    configFiles: string[];
    daemon: { running: boolean; pid: number | null; since: string | null };
  };
  /**
   * `schedule`: the configured cron expression; `scheduledBy`: what will run it (a running daemon, the
   * crontab block or launchd agents `mem schedule install` wrote), null when nothing will, and then
   * there is no `nextRun` either.
   */
  jobs: Array<{
    job: string;
    schedule: string | null;
    scheduledBy: ScheduledBy | null;
    nextRun: string | null;
    lastRun: JobLogLine | null;
    running: RunningJob[];
  }>;
  locks: Array<{ name: string; path: string; holders: RunningJob[] }>;
  /** Each configured transcript source: its transcript count, or missing (a warning) or unreadable (a problem). */
  sources: SourceStatus[];
  index: IndexStatus;
  archive: ArchiveStatus;
  providers: {
    llm: { model: string; baseURL: string } | null;
    /** `check`: what `mem index` found when it first checked this model (search/embed-check.ts). */
    embedding: { model: string; baseURL: string; check: ModelCheck | null } | null;
    search: 'bm25' | 'bm25+embeddings';
  };
  governance: { checks: Check[]; conflicts: Conflict[]; suspectedConflicts: Conflict[] };
  problems: string[];
}

export function runningJobs(workspace: string): RunningJob[] {
  const dir = path.join(workspace, RUNNING_DIR);
  const out: RunningJob[] = [];
  for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    try {
      const v = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as RunningJob;
      if (typeof v.pid === 'number' && pidAlive(v.pid)) out.push(v);
    } catch {
      // A marker being written or removed right now.
    }
  }
  return out;
}

function realPath(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
}

/** The names of the lock files, sorted; a lock folder that cannot be read is a problem, and the rest of the status is still shown. */
function lockNames(workspace: string, problems: string[]): string[] {
  try {
    return fs
      .readdirSync(path.join(workspace, LOCK_DIR))
      .filter((n) => n.endsWith('.lock'))
      .map((n) => n.slice(0, -5))
      .sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
      problems.push(
        `cannot read the lock folder ${LOCK_DIR}: ${describeError(err)}; every job that takes a lock fails until it is a folder memfold can use`,
      );
    return [];
  }
}

/**
 * What the crontab and the launchd folder hold for this workspace. Reading the crontab runs a child
 * process: `mem status` starts it first, before it reads the configuration, so the child runs while
 * the files are read. Never rejects (installedJobs: no cron is `cron: null`).
 */
export const readInstalled = (workspace: string): Promise<InstalledJobs> => installedJobs(realPath(workspace));

/**
 * `allConflicts: false` (what the screen needs): `governance.conflicts` may hold only the first 3 of
 * them; `installed`: readInstalled's promise when the caller started it, else started here.
 */
export async function collectStatus(
  workspace: string,
  loaded: LoadedConfig,
  now: Date,
  opts: { allConflicts?: boolean; installed?: Promise<InstalledJobs> } = {},
): Promise<StatusReport> {
  const { config, zone } = loaded;
  const installedRead = opts.installed ?? readInstalled(workspace);
  const problems: string[] = [];
  const schedule = new Map(effectiveSchedule(config).map((s) => [s.job, s.cron]));
  const last = lastRuns(readJobLog(workspace));
  const running = runningJobs(workspace);
  const daemonPid = readDaemonPid(workspace);
  const daemonAlive = !!daemonPid && pidAlive(daemonPid.pid);
  const names = [...new Set<string>([...SCHEDULED_JOBS, 'index', 'remember', ...last.keys()])];
  for (const job of names) {
    const lastRun = last.get(job);
    if (lastRun && lastRun.outcome !== 'ok')
      problems.push(
        `last ${job} run ${lastRun.outcome} at ${lastRun.end}: ${lastRun.message ?? `exit ${lastRun.exitCode}`}`,
      );
  }
  const locks: StatusReport['locks'] = [];
  for (const name of lockNames(workspace, problems)) {
    if (!(await isLocked(workspace, name, config.limits.lockStaleMs))) continue;
    locks.push({
      name,
      path: `${LOCK_DIR}/${name}.lock`,
      holders: running.filter(
        (r) =>
          r.job === name ||
          name === 'write' ||
          (name === 'consolidation' && (r.job === 'wrapup' || r.job === 'compound')),
      ),
    });
  }
  const sources = await sourceStatuses(workspace, config);
  for (const s of sources)
    if (s.state === 'unreadable')
      problems.push(`source "${s.name}": ${s.message}; microsync fails until it can be read`);
  // The stored summary while it matches memory/, else computed from the table's rows (entries/governance-refresh.ts: lint and conflicts loaded only then).
  const listed = statedMemoryFiles(workspace);
  const max = config.limits.entriesPerDailyFile;
  const { dailyEntries, conflicts, conflictCount, suspected, lint } =
    readStoredGovernance(workspace, TABLE_DIR, filesDigestOf(listed), max, opts.allConflicts ?? true) ??
    (await (await import('../entries/governance-refresh.js')).computeGovernance(workspace, listed, max));
  const memoryText = fs.existsSync(path.join(workspace, 'MEMORY.md'))
    ? fs.readFileSync(path.join(workspace, 'MEMORY.md'))
    : Buffer.alloc(0);
  // Counts stored by the last job where a summary is unchanged since (workspace/summary-lines.ts).
  const summaries = summaryLines(workspace);
  const checks = governanceChecks(
    {
      memoryLines: lineCount(memoryText),
      dailyEntries,
      summaryLines: summaries.map((f) => ({ path: f.path, value: f.value })),
      conflicts,
      conflictCount,
      suspected,
      lint,
    },
    config.limits,
  );
  for (const c of checks) if (!c.ok && c.level === 'problem') problems.push(c.message);
  const index = indexFreshness(
    workspace,
    config,
    last.get('index') ?? null,
    listed,
    new Map(summaries.map((f) => [f.path, f.mtimeMs])),
  );
  const installed = await installedRead;
  const by = (job: string): ScheduledBy | null =>
    daemonAlive
      ? 'daemon'
      : installed.cron?.includes(job)
        ? 'cron'
        : installed.launchd.includes(job)
          ? 'launchd'
          : null;
  const jobs = names.map((job) => {
    const expr = schedule.get(job) ?? null;
    const lastRun = last.get(job) ?? null;
    const scheduledBy = expr ? by(job) : null;
    return {
      job,
      schedule: expr,
      scheduledBy,
      nextRun: expr && scheduledBy ? nextRuns(expr, zone, now)[0]!.toISOString() : null,
      lastRun,
      running: running.filter((r) => r.job === job),
    };
  });
  const mergeRules = missingMergeRules(workspace);
  if (mergeRules) problems.push(mergeRules);
  return {
    workspace: {
      path: workspace,
      zone,
      configFiles: loaded.files,
      daemon: {
        running: daemonAlive,
        pid: daemonAlive ? daemonPid!.pid : null,
        since: daemonAlive ? daemonPid!.start : null,
      },
    },
    jobs,
    locks,
    sources,
    index,
    archive: archiveStatus(workspace),
    providers: {
      llm: config.llm ? { model: config.llm.model, baseURL: config.llm.baseURL } : null,
      embedding: config.embedding
        ? {
            model: config.embedding.model,
            baseURL: config.embedding.baseURL,
            check: readModelCheck(workspace, config.embedding) ?? null,
          }
        : null,
      search: config.embedding ? 'bm25+embeddings' : 'bm25',
    },
    governance: { checks, conflicts, suspectedConflicts: suspected },
    problems,
  };
}
