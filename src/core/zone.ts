/**
 * Time zones without luxon: the system zone, the configured zone's validity, and today's date in a
 * zone. The answers are luxon's (IANAZone.isValidZone is exactly "Intl.DateTimeFormat accepts it"),
 * but the first Intl.DateTimeFormat of a process costs ~17 ms of ICU set-up, so the common cases skip
 * it: "UTC" and ICU's own list of canonical zone names are valid without one, and today's date in a
 * zone comes from Date with TZ set (the same ICU zone data V8 uses for local time).
 */
import { MemError } from './errors.js';

let canonical: Set<string> | undefined;

export function systemZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

export function isValidZone(zone: string): boolean {
  if (!zone) return false;
  if (zone === 'UTC') return true;
  canonical ??= new Set(Intl.supportedValuesOf('timeZone'));
  if (canonical.has(zone)) return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone }).format();
    return true;
  } catch {
    return false;
  }
}

export function checkZone(zone: string): string {
  if (!isValidZone(zone)) {
    throw new MemError(
      'CONFIG_INVALID',
      `timezone "${zone}" is not an IANA time zone name (e.g. "Europe/Berlin", "Asia/Shanghai", "UTC")`,
    );
  }
  return zone;
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * The calendar day (YYYY-MM-DD) of `at` in a valid `zone`. For ICU's canonical names, setting TZ
 * re-reads the local zone in V8 (Node ≥ 13); it is restored at once so nothing else sees the change.
 */
export function dayIn(zone: string, at = new Date()): string {
  if (zone === 'UTC' || zone === 'Etc/UTC') return at.toISOString().slice(0, 10);
  canonical ??= new Set(Intl.supportedValuesOf('timeZone'));
  if (!canonical.has(zone)) {
    // An alias or another spelling Intl accepts (TZ might not): ask Intl itself.
    const parts = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).formatToParts(at);
    const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
    return `${get('year')}-${get('month')}-${get('day')}`;
  }
  const before = process.env.TZ;
  process.env.TZ = zone;
  try {
    return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
  } finally {
    if (before === undefined) delete process.env.TZ;
    else process.env.TZ = before;
  }
}
