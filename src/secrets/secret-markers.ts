/**
 * The markers redaction leaves (`[REDACTED:<kind>]`) and where they are in a text: a scan of text
 * already redacted must never match inside or across one (redaction stays idempotent), so the scan
 * in secrets.ts looks these sorted, disjoint spans up.
 */
const MARKER = /\[REDACTED:[a-z0-9-]{1,40}\]/g;

export function redactionMarker(kind: string): string {
  return `[REDACTED:${kind}]`;
}

/** The text with every marker blanked: a marker is no word anyone said. */
export function withoutMarkers(text: string): string {
  return text.replace(MARKER, ' ');
}

/** Binary search: markers are sorted and disjoint, and re-redacted text can hold thousands. */
export function touchesMarker(markers: Array<[number, number]>, start: number, end: number): boolean {
  let lo = 0;
  let hi = markers.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((markers[mid]?.[1] ?? 0) <= start) lo = mid + 1;
    else hi = mid;
  }
  const next = markers[lo];
  return next !== undefined && next[0] < end;
}

/** Where the first marker at or after `at` starts, or Infinity. */
export function nextMarker(markers: Array<[number, number]>, at: number): number {
  let lo = 0;
  let hi = markers.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((markers[mid]?.[0] ?? 0) < at) lo = mid + 1;
    else hi = mid;
  }
  return markers[lo]?.[0] ?? Infinity;
}

export function markerSpans(text: string): Array<[number, number]> {
  if (!text.includes('[REDACTED:')) return [];
  return [...text.matchAll(MARKER)].map((m) => [m.index, m.index + m[0].length]);
}
