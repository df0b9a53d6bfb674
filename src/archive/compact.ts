/**
 * Compaction of the archive tier. Every `mem archive` (or microsync refresh) that reads new lines
 * writes one small segment, and a query opens every segment: without merging, a year of cron runs
 * would make each `mem search --archive` open thousands of files. Once MAX_SMALL segments are small
 * (under SMALL_BYTES of doc lines), they are merged into one, which also drops the windows of retired
 * transcripts (rewritten or gone) and purged tombstones for good. Like an update, the merged segment
 * is written first and listed in the state last, so a killed compaction leaves the old state whole.
 */
import type { ArchiveDoc } from './format.js';
import type { SegmentEntry } from './segment-writer.js';
import { segmentWindows, type ArchiveState } from './store.js';
import { joinRows, pickRows, readVectors, type Vectors } from './vectors.js';

export const MAX_SMALL = 8;
export const SMALL_BYTES = 4 * 1024 * 1024;

/** The names of the segments to merge (pure): every small one once there are MAX_SMALL of them, else none. */
export function planCompaction(segments: Array<{ name: string; bytes: number }>): string[] {
  const small = segments.filter((s) => s.bytes < SMALL_BYTES).map((s) => s.name);
  return small.length >= MAX_SMALL ? small : [];
}

const isLive = (d: ArchiveDoc, liveFiles: Set<number>) => !d.purged && liveFiles.has(d.f);

/** The docs a merged segment keeps (pure): live files' windows, no tombstones. */
export function liveDocs(docs: ArchiveDoc[], liveFiles: Set<number>): ArchiveDoc[] {
  return docs.filter((d) => isLive(d, liveFiles));
}

/**
 * Merges the planned segments into one, in `state` (the caller writes the state). Returns how many
 * segments were merged (0: nothing to do).
 */
export async function compactSegments(
  workspace: string,
  state: ArchiveState,
  write: (docs: ArchiveDoc[], vectors: Vectors | null) => Promise<SegmentEntry>,
): Promise<number> {
  const sized = state.segments.map((s) => ({ name: s.name, bytes: s.bytes[3] ?? 0 }));
  const merge = new Set(planCompaction(sized));
  if (!merge.size) return 0;
  const live = new Set(Object.values(state.files).map((f) => f.no));
  const docs: ArchiveDoc[] = [];
  const rows: Array<{ vectors: Vectors | null; count: number }> = [];
  for (const s of state.segments) {
    if (!merge.has(s.name)) continue;
    const all = segmentWindows(workspace, s);
    const keep = all.flatMap((d, i) => (isLive(d, live) ? [i] : []));
    docs.push(...keep.map((i) => all[i]!));
    rows.push({ vectors: pickRows(readVectors(workspace, s), keep), count: keep.length });
  }
  const at = state.segments.findIndex((s) => merge.has(s.name));
  const kept = state.segments.filter((s) => !merge.has(s.name));
  const merged = docs.length ? [await write(docs, joinRows(rows))] : [];
  state.segments = [...kept.slice(0, at), ...merged, ...kept.slice(at)];
  return merge.size;
}
