/**
 * The archive tier's segments are the memory index's segments (search/index/segment-format.ts: .dict,
 * .post, .didx, .docs, written by its SegmentBuilder and read by its DiskSegment), so one engine
 * ranks all three tiers (search/query/engine.ts, minisearch's BM25). A window is a doc whose body
 * field is its redacted text (title and id fields empty) and whose `.docs` line is the ArchiveDoc.
 * Beside them, `seg-N.meta`: two u32 per doc, the window's first-turn time (seconds) and its file
 * number (0 for a purged tombstone), so the --since/--source/--session filters and the retired
 * files' docs are told apart without parsing a single doc line.
 */
import type { PendingRecord, SegmentBuilder } from '../search/index/segment-builder.js';
import { SEGMENT_EXTS, type SegmentFiles } from '../search/index/segment-format.js';
import type { DocRecord } from '../search/text/types.js';
import { foldText } from '../search/text/tokenize.js';

export const META_U32 = 2;
/** An archive segment's files, `seg-N.<ext>`, in this order in the state's `bytes`. */
export const ARCHIVE_EXTS = [...SEGMENT_EXTS, 'meta'] as const;

export interface ArchiveDoc {
  /** File number in the archive state (a rewritten file gets a new one; the old is retired). */
  f: number;
  /** Session id. */
  s: string;
  /** First and last turn (1-based, as `message_range` counts). */
  a: number;
  b: number;
  /** Timestamp of the first turn, ISO, or null. */
  t: string | null;
  /** Byte range of the window in the transcript. */
  o: number;
  e: number;
  /** Redacted text, one `[index] role: text` block per turn; empty when purged. */
  x: string;
  /** Purged by `mem forget --hard`: kept as a tombstone so doc numbers stay put. */
  purged?: true;
}

export interface ArchiveSegmentFiles extends SegmentFiles {
  meta: Uint8Array;
}

/** The window's first-turn time in whole seconds (0 when it has none). */
export function docSecs(d: ArchiveDoc): number {
  return d.t ? Math.max(0, Math.floor(Date.parse(d.t) / 1000)) || 0 : 0;
}

/** Adds a window to the builder as its next doc (a tombstone with no terms) and returns its meta row. */
export function addWindow(builder: SegmentBuilder, d: ArchiveDoc): [number, number] {
  const ids = builder.ids;
  ids.reset();
  ids.endField();
  if (!d.purged) ids.text(foldText(d.x));
  ids.endField();
  ids.endField();
  // The `.docs` line holds the window as it is; the engine never reads a record, only postings and lengths.
  builder.addIds(d as unknown as PendingRecord);
  return [docSecs(d), d.purged ? 0 : d.f];
}

/** A `.docs` record read back as the window it was written from (the builder appended its doc id). */
export function asWindow(record: DocRecord | Record<string, unknown>): ArchiveDoc {
  const { doc: _doc, ...d } = record as unknown as ArchiveDoc & { doc: number };
  return d;
}
