/**
 * The archive's segments opened as one tier for the memory index's lexical engine (search/index/
 * view.ts's TierView): every listed segment whose files are whole, the docs of retired transcripts
 * (rewritten or gone) and purged tombstones dead, and the collection statistics over the live docs
 * alone, so a window's BM25 is what a rebuilt archive would give it. Damaged segments are left out
 * and named. Reads each segment's `.meta` (8 bytes a window) and, only when some docs are dead,
 * its `.didx` for their lengths.
 */
import { DiskSegment } from '../search/index/segment.js';
import { deadSet } from '../search/index/tier-file.js';
import type { TierView } from '../search/index/view.js';
import { META_U32 } from './format.js';
import type { SegmentEntry } from './segment-writer.js';
import { openSegment, readMeta, segmentDamage, type ArchiveState } from './store.js';

export interface ArchiveView {
  view: TierView;
  /** The usable segments, their state entries and their meta rows, in the same order. */
  segments: DiskSegment[];
  entries: SegmentEntry[];
  /** A doc's [seconds, file number] (file 0: purged). */
  meta(doc: number, seg: number): [number, number];
  /** The index in `segments` of a segment the engine returned. */
  indexOf(seg: unknown): number;
  damaged: string[];
  close(): void;
}

export function openArchiveView(workspace: string, state: ArchiveState): ArchiveView {
  const damaged: string[] = [];
  const entries = state.segments.filter((s) => {
    const why = segmentDamage(workspace, s);
    if (why) damaged.push(why);
    return !why;
  });
  const live = new Set(Object.values(state.files).map((f) => f.no));
  const metas = entries.map((s) => readMeta(workspace, s));
  const segments = entries.map((s) => openSegment(workspace, s));
  const dead: [number, number][] = [];
  let docCount = 0;
  let lenSum = 0;
  entries.forEach((s, si) => {
    docCount += s.docs;
    lenSum += s.tokens;
    const m = metas[si]!;
    for (let i = 0; i < s.docs; i++) {
      if (live.has(m[i * META_U32 + 1]!)) continue;
      const doc = s.first + i;
      const last = dead[dead.length - 1];
      if (last && last[0] + last[1] === doc) last[1]++;
      else dead.push([doc, 1]);
      docCount--;
      lenSum -= segments[si]!.lengths(doc)[1];
    }
  });
  const order = new Map<unknown, number>(segments.map((s, i) => [s, i]));
  return {
    view: {
      segments,
      isDead: deadSet(dead),
      dead,
      docCount,
      avgLen: [1, docCount ? Math.max(1, lenSum / docCount) : 1, 1],
    },
    segments,
    entries,
    meta: (doc, si) => {
      const at = (doc - entries[si]!.first) * META_U32;
      return [metas[si]![at]!, metas[si]![at + 1]!];
    },
    indexOf: (seg) => order.get(seg) ?? -1,
    damaged,
    close: () => segments.forEach((s) => s.close()),
  };
}
