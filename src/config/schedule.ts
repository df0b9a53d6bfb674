/**
 * The `schedule` record of the configuration, checked when it loads (load.ts): each key a scheduled
 * job, each value "off", "" or an expression node-cron's own parser accepts, so `mem daemon`,
 * `mem schedule` and `mem status` agree on what is valid. A typo is a config error (exit 4) for every
 * command that loads the configuration, as a value of the wrong type is; before, only the commands
 * that read the schedule refused it and `mem config` showed it as fine. The lean search and index
 * path (lean.ts) never reads the schedule and skips the check, so it never loads node-cron.
 */
import cron from 'node-cron';
import { MemError } from '../core/errors.js';
import { SCHEDULED_JOBS } from './jobs.js';

/** A schedule value that turns its job off. */
export const isOff = (expr: string): boolean => !expr.trim() || expr.trim() === 'off';

export function checkSchedule(schedule: Record<string, string>, label: string): void {
  for (const [job, expr] of Object.entries(schedule)) {
    if (isOff(expr)) continue;
    if (!(SCHEDULED_JOBS as readonly string[]).includes(job)) {
      throw new MemError(
        'CONFIG_INVALID',
        `${label}: schedule.${job}: not a scheduled job (allowed: ${SCHEDULED_JOBS.join(', ')})`,
      );
    }
    const e = expr.trim();
    const v = cron.validateDetailed(e);
    if (!v.valid) {
      const why = v.errors
        .map((x) => `${x.field}${x.value !== undefined ? ` "${x.value}"` : ''}: ${x.message}`)
        .join('; ');
      throw new MemError(
        'CONFIG_INVALID',
        `${label}: schedule.${job}: "${e}" is not a cron expression (${why || 'invalid'}); use 5 fields "min hour day month weekday", e.g. "0 10,13,16,19,22 * * *", or "off"`,
      );
    }
  }
}
