/**
 * The effective schedule (DESIGN §7): defaults for every scheduled job, overridden per job by the
 * `schedule` record of mem.config.json ("off" or "" turns a job off). The record was checked when
 * the configuration loaded (config/schedule.ts); `nextRuns` computes with node-cron's own matcher.
 */
import cron from 'node-cron';
import { MemError } from '../core/errors.js';
import type { Config } from '../config/schema.js';
import type { TimedJob } from '../config/jobs.js';
import { isOff } from '../config/schedule.js';

export const DEFAULT_SCHEDULE: Record<string, string> = {
  microsync: '0 10,13,16,19,22 * * *',
  wrapup: '0 3 * * *',
  compound: '0 4 * * 1',
};

/** Per-job time limits when `limits.jobTimeoutMs` names none. */
export const DEFAULT_TIMEOUT_MS: Record<string, number> = {
  microsync: 10 * 60_000,
  wrapup: 30 * 60_000,
  compound: 60 * 60_000,
  index: 10 * 60_000,
} satisfies Record<TimedJob, number>;

export interface ScheduledJob {
  job: string;
  cron: string;
}

export function effectiveSchedule(config: Config): ScheduledJob[] {
  const merged: Record<string, string> = { ...DEFAULT_SCHEDULE, ...config.schedule };
  return Object.entries(merged).flatMap(([job, expr]) => (isOff(expr) ? [] : [{ job, cron: expr.trim() }]));
}

export function jobTimeoutMs(config: Config, job: string): number {
  return config.limits.jobTimeoutMs[job] ?? DEFAULT_TIMEOUT_MS[job] ?? 10 * 60_000;
}

/**
 * The next `count` moments `expr` fires at after `from`, in `zone`, computed by node-cron's own
 * matcher (the one its scheduler uses), so what status shows is what the daemon does.
 */
export function nextRuns(expr: string, zone: string, from: Date, count = 1): Date[] {
  const task = cron.createTask(expr, () => {}, { timezone: zone });
  const matcher = (task as unknown as { timeMatcher?: { getNextMatch(d: Date): Date } }).timeMatcher;
  const out: Date[] = [];
  let at = from;
  for (let i = 0; i < count; i++) {
    at = matcher ? matcher.getNextMatch(at) : walkNext(task, at);
    out.push(at);
  }
  void task.destroy();
  return out;
}

/** Fallback through the public `match()` if node-cron's matcher is ever not reachable: minute by minute, a year at most. */
function walkNext(task: { match(d: Date): boolean }, from: Date): Date {
  const t = new Date(Math.floor(from.getTime() / 60_000) * 60_000 + 60_000);
  for (let i = 0; i < 366 * 1440; i++, t.setTime(t.getTime() + 60_000)) if (task.match(t)) return new Date(t);
  throw new MemError('CONFIG_INVALID', 'cron expression never fires within a year');
}
