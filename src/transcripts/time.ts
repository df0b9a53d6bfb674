/**
 * Timestamps from any transcript normalised to ISO 8601 UTC, or null when there is none we trust.
 * Epoch numbers are told apart by size: below 1e11 they are seconds (1e11 s is the year 5138),
 * from 1e14 microseconds, in between milliseconds (1e11 ms is March 1973). ISO strings without an
 * offset are wall-clock times in the given zone (the configured `timezone`, as `--now` is read; UTC
 * when none is given), never the machine's local time, so a run gives the same answer on every
 * machine. A time before 2000 or from 2100 on is a misread number (a bare "2"), not when an agent
 * spoke: null.
 */
import { DateTime } from 'luxon';

const ISO_LIKE = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?)[ ]?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;
const SECONDS_BELOW = 1e11;
const MICROS_FROM = 1e14;
const EARLIEST = Date.UTC(2000, 0, 1);
const LATEST = Date.UTC(2100, 0, 1);

/** `zone`: an IANA name for times without an offset (a valid one: the config checked it). */
export function normalizeTimestamp(value: unknown, zone = 'UTC'): string | null {
  if (value instanceof Date) return iso(value.getTime());
  if (typeof value === 'number') return fromEpoch(value);
  if (typeof value !== 'string') return null;
  const s = value.trim();
  if (/^\d+(\.\d+)?$/.test(s)) return fromEpoch(Number(s));
  const m = ISO_LIKE.exec(s);
  if (!m) return null;
  const [, date, time, offset] = m;
  const local = `${date}T${time?.replace(',', '.') ?? '00:00:00'}`;
  if (offset || zone === 'UTC') return iso(Date.parse(`${local}${normalizeOffset(offset)}`));
  return iso(DateTime.fromISO(local, { zone }).toMillis());
}

function normalizeOffset(offset: string | undefined): string {
  if (!offset || offset.toUpperCase() === 'Z') return 'Z';
  const digits = offset.slice(1).replace(':', '');
  return `${offset[0]}${digits.slice(0, 2)}:${digits.slice(2, 4) || '00'}`;
}

function fromEpoch(n: number): string | null {
  if (!Number.isFinite(n) || n <= 0) return null;
  const ms = n < SECONDS_BELOW ? n * 1000 : n >= MICROS_FROM ? n / 1000 : n;
  return iso(ms);
}

function iso(ms: number): string | null {
  if (!Number.isFinite(ms) || ms < EARLIEST || ms >= LATEST) return null;
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}
