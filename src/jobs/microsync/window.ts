/**
 * Where a transcript without a cursor starts to be read when no `--since` is given (DESIGN §4: a run
 * reads what is new since its cursors, the first run the last 24 hours, so no gap is left between runs).
 *
 * Only the workspace's first run (no cursor at all) is bounded by the 24 hours. After that, a file
 * without a cursor is new or was untouched when the runs so far looked at it: it is read back to the
 * newest transcript change a run has recorded (the latest cursor's mtime, which no run saw past),
 * so a session begun while no run was made (cron off for a weekend) is read whole, and an old file
 * written to again gives only its new turns. Never less than the first run's 24 hours: a cursor
 * taken from a clock ahead of `--now` (a replay) must not narrow the window.
 */
import { DateTime } from 'luxon';
import type { Cursors } from '../../transcripts/cursors.js';

export const FIRST_RUN_WINDOW_HOURS = 24;

export function uncursoredStart(cursors: Cursors, now: DateTime): DateTime {
  const firstRun = now.minus({ hours: FIRST_RUN_WINDOW_HOURS });
  const seen = Object.values(cursors).reduce((newest, c) => Math.max(newest, c.mtimeMs), -Infinity);
  if (seen === -Infinity) return firstRun;
  return DateTime.min(firstRun, DateTime.fromMillis(seen, { zone: now.zone }));
}
