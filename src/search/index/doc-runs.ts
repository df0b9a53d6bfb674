/**
 * Doc ids in runs [first, count] (pure): a file's docs in chunk order (FileState `first`/`count`,
 * or `runs` once an update kept some of its chunks), dead ranges, and the segments holding them.
 * Every run lies in one segment (runsOf), which tier-edit.ts dropEmptySegments counts on.
 */
import type { FileState } from './manifest.js';

/** Whether a segment (or any range of docs) holds `doc`. */
export function holds(s: { first: number; count: number }, doc: number): boolean {
  return doc >= s.first && doc < s.first + s.count;
}

/** The one of `segments` that holds `doc`. */
export function segmentOf<S extends { first: number; count: number }>(
  segments: readonly S[],
  doc: number,
): S | undefined {
  return segments.find((s) => holds(s, doc));
}

/** A file's docs as runs [first, count] in chunk order (none for a file with no chunks). */
export function docRuns(f: Pick<FileState, 'first' | 'count' | 'runs'>): [number, number][] {
  return f.runs ?? (f.count ? [[f.first, f.count]] : []);
}

/**
 * Doc ids as runs [first, count] of consecutive ids, in the given order. A doc that starts a segment
 * starts a run: a run (a file's, a dead range) lies in one segment, which is what dropEmptySegments
 * counts on.
 */
export function runsOf(docs: readonly number[], startsSegment: (doc: number) => boolean): [number, number][] {
  const runs: [number, number][] = [];
  for (const d of docs) {
    const last = runs[runs.length - 1];
    if (last && last[0] + last[1] === d && !startsSegment(d)) last[1]++;
    else runs.push([d, 1]);
  }
  return runs;
}

/** The doc ids of runs, in order (into `out`). */
export function docsOf(runs: readonly [number, number][], out: number[] = []): number[] {
  for (const [first, count] of runs) for (let d = first; d < first + count; d++) out.push(d);
  return out;
}
