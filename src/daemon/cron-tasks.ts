/**
 * The daemon's clock: one node-cron task per scheduled job, in the configured IANA zone. Kept apart
 * from the daemon so the time-zone/DST behaviour of exactly this call can be tested on a controlled
 * clock (test/daemon-dst.test.ts).
 */
import cron, { type ScheduledTask } from 'node-cron';
import type { ScheduledJob } from '../schedule/jobs.js';

export function scheduleJobs(
  jobs: ScheduledJob[],
  zone: string,
  fire: (job: string, at: Date) => void,
): ScheduledTask[] {
  return jobs.map((s) => cron.schedule(s.cron, (ctx) => fire(s.job, ctx.date), { timezone: zone, name: s.job }));
}
