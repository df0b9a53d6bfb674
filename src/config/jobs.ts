/**
 * The jobs a configuration may name: `schedule` keys a scheduled job, `limits.jobTimeoutMs` a job
 * `mem daemon` runs under a time limit. A key naming none (a typo) is a config error, never a
 * setting silently ignored. Free of zod and node-cron: the schema, the schedule check and the lean
 * path's quick check (quick.ts) all read it.
 */
export const SCHEDULED_JOBS = ['microsync', 'wrapup', 'compound'] as const;

export const TIMED_JOBS = [...SCHEDULED_JOBS, 'index'] as const;
export type TimedJob = (typeof TIMED_JOBS)[number];

export const isTimedJob = (job: string): boolean => (TIMED_JOBS as readonly string[]).includes(job);
