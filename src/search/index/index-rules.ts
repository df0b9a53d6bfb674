/**
 * The indexer's rules about a tier update, pure (no file or lock): segment size, when to compact,
 * and when a limited update (the search server's) declines.
 */
import { holds } from './doc-runs.js';
import { sameStat } from './files-stamp.js';
import type { ScannedFile } from './scan.js';
import { filesWithDocsIn } from './tier-edit.js';
import type { SegmentRef, TierState } from './tier-state.js';
import type { Tier } from '../text/types.js';

/** An update with a `limit` that would change more files or rebuild a tier: the caller indexes another way. */
export class IndexDeclined extends Error {}

/** Docs per segment of a build (`MEM_INDEX_SEGMENT_DOCS` lets tests make many small segments). */
export const FLUSH_DOCS = Number(process.env.MEM_INDEX_SEGMENT_DOCS) || 25_000;
/** Incremental updates add small segments; past this many beyond a rebuild's count, compact. */
const EXTRA_SEGMENTS = 12;

/** An incremental update's segment of fewer docs is a tail segment (SegmentRef.tail). */
export const TAIL_DOCS = Math.min(1_000, FLUSH_DOCS);
/** With this many tail segments, an update indexes the files with docs in them again, into its own segment. */
export const TAIL_MERGE = 8;

/**
 * The tail segments' docs are not kept when their files change. Once TAIL_MERGE tails have gathered,
 * an update merges: it re-chunks the files with docs in them and in the last merge's small segment
 * and moves those docs (`moving`) into its own segment, which empties them all.
 */
export function tailPlan(prev: TierState): { tails: number; merge: Set<string>; moving: (doc: number) => boolean } {
  const tails = prev.segments.filter((s) => s.tail);
  const merging = tails.length >= TAIL_MERGE;
  const movable = merging ? prev.segments.filter((s) => s.tail || s.merged) : tails;
  return {
    tails: tails.length,
    merge: merging ? filesWithDocsIn(prev.files, movable) : new Set(),
    moving: (doc) => movable.some((s) => holds(s, doc)),
  };
}

/**
 * How an update marks a segment it writes: a small one is a tail (its docs are not kept, and merged
 * in time); a merge's small one keeps its docs for edits, and the next merge takes it in.
 */
export function smallSegment(
  incremental: boolean,
  merging: boolean,
  count: number,
): Pick<SegmentRef, 'tail' | 'merged'> {
  if (!incremental || count >= TAIL_DOCS) return {};
  return merging ? { merged: true } : { tail: true };
}

export function needsCompaction(s: TierState): boolean {
  const total = s.docCount + s.deadCount;
  return (
    s.segments.length > Math.ceil(total / FLUSH_DOCS) + EXTRA_SEGMENTS ||
    (s.deadCount > 200 && s.deadCount > total * 0.3)
  );
}

/**
 * Throws IndexDeclined when updating `prev` to `files` would rebuild the tier, touch more than `limit`
 * files or call for a compaction (predicted from the dead docs the update leaves: a rebuild's work).
 */
export function declineBeyond(
  limit: number,
  tier: Tier,
  prev: TierState,
  prevCount: number,
  files: ScannedFile[],
  rebuilt: string | null,
): void {
  if (rebuilt) throw new IndexDeclined(`the ${tier} index must be rebuilt`);
  let known = 0;
  let dirty = 0;
  let keptDocs = 0;
  for (const f of files) {
    const old = prev.files.get(f.path);
    if (old) known++;
    if (old && sameStat(old, f)) keptDocs += old.count;
    else dirty++;
  }
  const touched = dirty + prevCount - known;
  if (touched > limit) throw new IndexDeclined(`${touched} files of the ${tier} tier changed (more than ${limit})`);
  const after = {
    ...prev,
    segments: [...prev.segments, { name: '', first: 0, count: 0 }],
    deadCount: prev.deadCount + prev.docCount - keptDocs,
  };
  if (needsCompaction(after)) throw new IndexDeclined(`the ${tier} index is due for compaction`);
}
