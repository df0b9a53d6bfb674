/**
 * A moment as a read command logs and dates it, without luxon: its ISO time in UTC (milliseconds
 * only when there are some, as luxon's `toISO({ suppressMilliseconds: true })` writes it) and its
 * calendar day in the workspace's zone. `mem get` and `mem context` need no more, and loading luxon
 * cost a session start about a sixth of its time; a given `--now` or MEM_NOW is parsed with luxon
 * (readInstant), as every other command parses it.
 */
import type { DateTime } from 'luxon';
import { dayIn } from './zone.js';
import type { NowText } from './now-text.js';

export interface Instant {
  /** `2026-11-27T09:30:00Z`. */
  utc: string;
  /** `2026-11-27`, in the workspace's zone. */
  day: string;
}

/** The clock's moment in `zone`. */
export function clockInstant(zone: string, at = new Date()): Instant {
  return { utc: at.toISOString().replace(/\.000Z$/, 'Z'), day: dayIn(zone, at) };
}

/** The given moment (`--now`, MEM_NOW; luxon parses it, and names it in an error), else the clock's. */
export async function readInstant(moment: NowText | undefined, zone: string): Promise<Instant> {
  if (moment === undefined) return clockInstant(zone);
  const { parseMoment } = await import('./time.js');
  return instantOf(parseMoment(moment.value, zone, moment.what));
}

/** A luxon moment as an Instant (its zone's day). */
export function instantOf(dt: DateTime): Instant {
  return { utc: dt.toUTC().toISO({ suppressMilliseconds: true }) ?? '', day: dt.toISODate() ?? '' };
}
