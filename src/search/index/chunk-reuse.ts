/**
 * Chunk-level updates, pure (the indexer reads the stored records): a changed file is re-chunked,
 * and each chunk that is the same as the file's doc at its position keeps that doc (its postings,
 * lengths and vector); only the other chunks are tokenized into the new segment, and only the docs
 * no chunk kept die. Appending an entry to a daily file of 130 entries so adds one doc, not 131.
 *
 * Position by position is enough: a chunk records its lines, so a line added or removed above it
 * changes it anyway. The same means the same stored record (heading, lines, text, id, status ...:
 * everything its tokens come from), and a text short enough to be stored whole. Docs of a tail
 * segment are not kept (`keepable`): a file edited again and again so moves its new chunks into
 * the newest segment and leaves the older one empty, instead of a segment per edit.
 */
import { docRecord } from './build-docs.js';
import { MAX_TEXT } from '../text/chunk.js';
import { runsOf } from './doc-runs.js';
import type { Chunk, DocRecord, Tier } from '../text/types.js';

export interface ChunkReuse {
  /** Per chunk, the old doc it keeps, or -1: a chunk to index anew. */
  kept: number[];
  /** The old docs no chunk kept, as runs [first, count]. */
  retired: [number, number][];
}

/** What the indexer knows of a tier's docs: stored records, segment starts, which may be kept. */
export interface OldDocs {
  record(doc: number): DocRecord;
  startsSegment(doc: number): boolean;
  keepable(doc: number): boolean;
}

/** `oldDocs`: the file's docs in chunk order. */
export function reuseChunks(
  chunks: readonly Chunk[],
  tier: Tier,
  oldDocs: readonly number[],
  docs: OldDocs,
): ChunkReuse {
  const kept = chunks.map((c, i) => {
    const old = oldDocs[i];
    return old !== undefined && docs.keepable(old) && sameChunk(c, tier, docs.record(old)) ? old : -1;
  });
  const keptSet = new Set(kept);
  return {
    kept,
    retired: runsOf(
      oldDocs.filter((d) => !keptSet.has(d)),
      docs.startsSegment,
    ),
  };
}

function sameChunk(c: Chunk, tier: Tier, stored: DocRecord): boolean {
  // A stored text is cut at MAX_TEXT: an equal beginning says nothing of the rest, which was
  // tokenized, and a stored text of MAX_TEXT may have been cut (whole-text.ts reads the same way).
  if (c.text.length >= MAX_TEXT) return false;
  const { doc: _doc, ...record } = stored;
  // Both are a chunk's fields in the chunker's order, then `tier` (JSON.parse keeps the stored order).
  return JSON.stringify(record) === JSON.stringify(docRecord(c, tier));
}
