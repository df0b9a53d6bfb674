/**
 * The bookkeeping of an index update on a tier state, without I/O (indexer.ts reads and writes):
 * retiring a changed or removed file's docs (all of them, or those of chunks it no longer has), and
 * dropping segments left with no live doc.
 *
 * Invariant: docCount, deadCount and lenSum describe the live docs. Retired docs leave all three at
 * once (their runs become dead ranges); every run lies in one segment (doc-runs.ts runsOf); a
 * segment goes only when no file's docs start in it, and its dead ranges go with it.
 */
import type { Segment } from './segment.js';
import type { Manifest } from './manifest.js';
import type { DocRecord } from '../text/types.js';
import { docRuns, holds, segmentOf } from './doc-runs.js';
import type { SegmentRef, TierHead, TierState } from './tier-state.js';
import type { FileState } from './manifest.js';

/** Field lengths (title, body, id) of one doc, from the segment that holds it. */
export type DocLengths = (doc: number) => readonly [number, number, number];

/** DocLengths read from the segments that hold the docs (zeros for a doc none holds). */
export function lengthsIn(segments: Segment[]): DocLengths {
  return (d) => segmentOf(segments, d)?.lengths(d) ?? [0, 0, 0];
}

/** Stored records read from the segments that hold the docs. */
export function recordsIn(segments: Segment[]): (doc: number) => DocRecord {
  return (d) => {
    const s = segmentOf(segments, d);
    if (!s) throw new Error(`doc ${d} is in no segment of the tier file`);
    return s.record(d);
  };
}

/**
 * Marks the doc runs [first, count] dead in `next` and takes their docs out of the counts and length
 * sums; returns how many. `next` is a tier state being updated (indexer.ts) or a search's overlay
 * of one (view.ts).
 */
export function retireRuns(
  next: Pick<TierHead, 'dead' | 'deadCount' | 'docCount' | 'lenSum'>,
  runs: readonly [number, number][],
  lengthsOf: DocLengths,
): number {
  let retired = 0;
  for (const [first, count] of runs) {
    if (!count) continue;
    next.dead.push([first, count]);
    for (let d = first; d < first + count; d++) {
      const l = lengthsOf(d);
      for (let i = 0; i < 3; i++) next.lenSum[i] = next.lenSum[i]! - l[i]!;
    }
    retired += count;
  }
  next.deadCount += retired;
  next.docCount -= retired;
  return retired;
}

/** Retires all of a changed or removed file's docs (retireRuns). */
export function retireDocs(
  next: Pick<TierHead, 'dead' | 'deadCount' | 'docCount' | 'lenSum'>,
  old: FileState,
  lengthsOf: DocLengths,
): number {
  return retireRuns(next, docRuns(old), lengthsOf);
}

/** The files with docs in any of `segments` (every bucket of the manifest is read). */
export function filesWithDocsIn(files: Manifest, segments: readonly SegmentRef[]): Set<string> {
  const out = new Set<string>();
  for (const [path, f] of files.entries()) {
    if (docRuns(f).some(([first]) => segments.some((s) => holds(s, first)))) out.add(path);
  }
  return out;
}

/**
 * Drops the segments that hold no live doc any more, with their dead ranges; recounts deadCount.
 * Only a segment holding a dead range can have lost its last live doc. Its dead ranges tell: as
 * every doc belongs to one file and a file's range dies once, disjoint ranges that cover fewer docs
 * than the segment leave one alive, and ranges that cover all of them leave none. Only should they
 * overlap or stray past the segment (never written so) are the files walked, once, and no further
 * than it takes to find a live doc in each such segment (the walk of 10,000 files: ~2 ms).
 */
export function dropEmptySegments(next: TierState): void {
  const alive = new Set<SegmentRef>();
  const doubtful: SegmentRef[] = [];
  for (const s of next.segments) {
    const ranges = next.dead.filter(([first]) => holds(s, first)).sort((x, y) => x[0] - y[0]);
    if (!ranges.length) continue;
    const disjoint = ranges.every(
      ([first, count], i) => first + count <= (i + 1 < ranges.length ? ranges[i + 1]![0] : s.first + s.count),
    );
    if (!disjoint) doubtful.push(s);
    else if (ranges.reduce((n, [, count]) => n + count, 0) < s.count) alive.add(s);
  }
  if (doubtful.length) {
    const found = () => doubtful.every((s) => alive.has(s));
    for (const [, f] of next.files.entries()) {
      for (const [first] of docRuns(f)) for (const s of doubtful) if (holds(s, first)) alive.add(s);
      if (found()) break;
    }
  }
  next.segments = next.segments.filter((s) => alive.has(s) || !next.dead.some(([first]) => holds(s, first)));
  next.dead = next.dead.filter(([first]) => next.segments.some((s) => holds(s, first)));
  next.deadCount = next.dead.reduce((n, [, count]) => n + count, 0);
}
