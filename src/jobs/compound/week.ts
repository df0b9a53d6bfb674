/** ISO weeks in the configured zone (DESIGN §3): `--week 2026-W47`, or the last complete week before `now`. */
import { DateTime } from 'luxon';
import { MemError } from '../../core/errors.js';

export interface Week {
  /** `2026-W47` (ISO week-year and week number). */
  label: string;
  /** Monday and Sunday, YYYY-MM-DD. */
  firstDay: string;
  lastDay: string;
  start: DateTime;
  /** Exclusive: Monday 00:00 of the next week. */
  end: DateTime;
}

const WEEK = /^(\d{4})-W(\d{2})$/;

function weekOf(start: DateTime): Week {
  const label = `${start.weekYear}-W${String(start.weekNumber).padStart(2, '0')}`;
  const end = start.plus({ weeks: 1 });
  return { label, firstDay: start.toISODate()!, lastDay: end.minus({ days: 1 }).toISODate()!, start, end };
}

export function resolveWeek(week: string | undefined, now: DateTime): Week {
  if (week === undefined) return weekOf(now.startOf('week').minus({ weeks: 1 }));
  const m = WEEK.exec(week.trim());
  const dt = m
    ? DateTime.fromObject({ weekYear: Number(m[1]), weekNumber: Number(m[2]), weekday: 1 }, { zone: now.zone })
    : undefined;
  if (!dt?.isValid || dt.weekNumber !== Number(m![2]))
    throw new MemError('INVALID_DATE', `--week "${week}" is not an ISO week (YYYY-Www, e.g. 2026-W47)`);
  if (dt > now) throw new MemError('USAGE', `--week ${week} starts after --now (${now.toISO()})`);
  return weekOf(dt.startOf('day'));
}

/** Whole days from `day` to the week's last day (0 for an entry of that Sunday). */
export function ageDays(day: string, week: Week): number {
  const d = DateTime.fromISO(day, { zone: 'utc' });
  const last = DateTime.fromISO(week.lastDay, { zone: 'utc' });
  return d.isValid ? Math.max(0, Math.round(last.diff(d, 'days').days)) : 365;
}
