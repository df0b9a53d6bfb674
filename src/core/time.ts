/**
 * Time as memfold sees it: every time-relative behaviour is measured from one `now` (`--now`/MEM_NOW,
 * DESIGN §3) in the configured IANA zone, so a job can be replayed and give the same files.
 */
import { DateTime } from 'luxon';
import { MemError } from './errors.js';

// Zone checks live in a luxon-free module so the lean search path can use them (config/zone.ts).
export { checkZone, systemZone } from './zone.js';

/** An ISO 8601 moment; without an offset it is read in `zone`. */
export function parseMoment(value: string, zone: string, what = '--now'): DateTime {
  const dt = DateTime.fromISO(value.trim(), { zone, setZone: true });
  // luxon takes any offset up to ±99:59; the earth's run from -12:00 to +14:00.
  if (!dt.isValid || dt.offset < -12 * 60 || dt.offset > 14 * 60) {
    throw new MemError(
      'INVALID_DATE',
      `${what} "${value}" is not an ISO 8601 date or time (e.g. 2026-11-21T18:30 or 2026-11-21T18:30:00Z)`,
    );
  }
  return dt.setZone(zone);
}

/** The given moment (`--now` or MEM_NOW, named in an error by `what`), else the clock's, in `zone`. */
export function resolveNow(moment: { value: string; what: string } | undefined, zone: string): DateTime {
  return moment !== undefined ? parseMoment(moment.value, zone, moment.what) : DateTime.now().setZone(zone);
}

const DURATION = /^(\d+)\s*(m|min|h|d|w)$/i;
const UNIT = { m: 'minutes', min: 'minutes', h: 'hours', d: 'days', w: 'weeks' } as const;

/** `--since`: a duration back from now (30m, 3h, 2d, 1w), an ISO date/time, or `all` (null). */
export function parseSince(value: string, now: DateTime): DateTime | null {
  const v = value.trim();
  if (v.toLowerCase() === 'all') return null;
  const m = DURATION.exec(v);
  if (m) {
    const unit = UNIT[m[2]!.toLowerCase() as keyof typeof UNIT];
    return now.minus({ [unit]: Number(m[1]) });
  }
  const dt = DateTime.fromISO(v, { zone: now.zone, setZone: true });
  if (!dt.isValid) {
    throw new MemError(
      'INVALID_DATE',
      `--since "${value}" is not a duration (30m, 3h, 2d, 1w), an ISO date/time or "all"`,
    );
  }
  return dt.setZone(now.zone);
}

/** Whether `text` is a real day, YYYY-MM-DD: not 2026-02-30, 2026-13-01, nor year 0000 (the calendar has none). */
export function isCalendarDay(text: string): boolean {
  return (
    /^\d{4}-\d{2}-\d{2}$/.test(text) && !text.startsWith('0000-') && DateTime.fromISO(text, { zone: 'utc' }).isValid
  );
}

/** The calendar day (YYYY-MM-DD) an ISO moment belongs to in `zone`. */
export function dayOf(iso: string, zone: string): string {
  return DateTime.fromISO(iso, { zone: 'utc' }).setZone(zone).toISODate() ?? iso.slice(0, 10);
}

export function toIsoUtc(dt: DateTime): string {
  return dt.toUTC().toISO({ suppressMilliseconds: true }) ?? '';
}
