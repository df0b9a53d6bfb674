/**
 * cron and launchd read times in the system's time zone; memfold's schedule is in the configured
 * one (DESIGN §3). When the two differ, the hour field is shifted by the zones' difference at install
 * time (and a weekday field with it when a time crosses midnight). Zones whose DST rules differ drift
 * by an hour between their changes: `mem schedule install` says so, and re-running it (idempotent)
 * realigns; `mem daemon` has no such drift, it reads the configured zone itself.
 */
import { DateTime } from 'luxon';
import { MemError } from '../core/errors.js';

function numbers(field: string, min: number, max: number): number[] | undefined {
  if (field === '*') return undefined;
  const out: number[] = [];
  for (const part of field.split(',')) {
    const m = /^(\*|\d+)(?:-(\d+))?(?:\/(\d+))?$/.exec(part);
    if (!m)
      throw new MemError(
        'CONFIG_INVALID',
        `cron field "${field}" is not supported by "mem schedule" (use numbers, ranges, lists and steps)`,
      );
    const lo = m[1] === '*' ? min : Number(m[1]);
    const hi = m[2] !== undefined ? Number(m[2]) : m[1] === '*' || m[3] ? max : lo;
    const step = m[3] ? Number(m[3]) : 1;
    for (let v = lo; v <= hi; v += step) out.push(v);
  }
  return [...new Set(out)].sort((a, b) => a - b);
}

export interface CronFields {
  minute?: number[];
  hour?: number[];
  day?: number[];
  month?: number[];
  weekday?: number[];
}

/** A 5-field expression as lists of numbers (undefined for `*`); weekday 7 is Sunday (0). */
export function cronFields(expr: string): CronFields {
  const f = expr.trim().split(/\s+/);
  if (f.length !== 5)
    throw new MemError(
      'CONFIG_INVALID',
      `"${expr}": cron and launchd take 5 fields (minute hour day month weekday); a seconds field works only with "mem daemon"`,
    );
  const weekday = numbers(f[4]!, 0, 7)?.map((d) => d % 7);
  return {
    minute: numbers(f[0]!, 0, 59),
    hour: numbers(f[1]!, 0, 23),
    day: numbers(f[2]!, 1, 31),
    month: numbers(f[3]!, 1, 12),
    weekday: weekday ? [...new Set(weekday)].sort() : undefined,
  };
}

export function offsetHours(zone: string, systemZone: string, at: Date): number {
  const t = DateTime.fromJSDate(at);
  return (t.setZone(zone).offset - t.setZone(systemZone).offset) / 60;
}

/**
 * The expression moved from `zone` to `systemZone` (as of `at`), or the same one when they agree.
 * On every day alike (day, month and weekday `*`) a time past midnight is still exact, and an hour
 * field of `*` needs no shift (nor a note claiming one). A restricted day keeps its times only when
 * they all move to one other day, and a weekday (not a day of the month or a month) can follow them.
 */
export function toSystemZone(
  expr: string,
  zone: string,
  systemZone: string,
  at: Date,
): { expr: string; shiftedHours: number } {
  const diff = offsetHours(zone, systemZone, at);
  if (diff === 0) return { expr, shiftedHours: 0 };
  if (!Number.isInteger(diff))
    throw new MemError(
      'CONFIG_INVALID',
      `timezone ${zone} differs from the system's (${systemZone}) by ${diff} hours; "mem schedule" shifts whole hours only — use "mem daemon", or set the system's zone`,
    );
  const f = expr.trim().split(/\s+/);
  const { hour, day, month, weekday } = cronFields(expr);
  const everyDay = !day && !month && !weekday;
  if (!hour) {
    if (everyDay) return { expr, shiftedHours: 0 };
    throw new MemError(
      'CONFIG_INVALID',
      `"${expr}" in ${zone} can not be written for the system's zone ${systemZone} (hour "*" on a restricted day, weekday or month: its hours fall on two days there); use "mem daemon", or set the system's zone`,
    );
  }
  const moved = hour.map((h) => h - diff);
  const wraps = [...new Set(moved.map((h) => Math.floor(h / 24)))];
  const dayShift = wraps[0] ?? 0;
  if (!everyDay && (wraps.length > 1 || (dayShift && (day || month)))) {
    throw new MemError(
      'CONFIG_INVALID',
      `"${expr}" in ${zone} can not be written for the system's zone ${systemZone} (its times fall on different days there); use "mem daemon", or set the system's zone`,
    );
  }
  f[1] = [...new Set(moved.map((h) => ((h % 24) + 24) % 24))].sort((a, b) => a - b).join(',');
  if (dayShift && weekday)
    f[4] = [...new Set(weekday.map((d) => (((d + dayShift) % 7) + 7) % 7))].sort((a, b) => a - b).join(',');
  return { expr: f.join(' '), shiftedHours: diff };
}
