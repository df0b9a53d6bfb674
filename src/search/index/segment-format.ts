/**
 * The on-disk segment (pure encoding): a segment is an immutable batch of chunks with contiguous
 * doc ids, stored as four files so a query reads only what it needs (DESIGN §6 "never the whole
 * index"):
 *
 *   <name>.dict  u32 shardCount, u32 offsets[shardCount+1], then per shard the UTF-8 JSON
 *                {term: [df, start, count]}: a query parses only the shards of its own terms
 *   <name>.post  u32 pairs (doc, field << 24 | tf), one run per term; long runs are ordered by impact
 *                (tf, then shorter body first) so a capped read of a very common term keeps its best docs
 *   <name>.didx  u32 first, u32 count, then per doc (offset into .docs, title/body/id lengths), then
 *                the end offset: field lengths for BM25 come from one small read
 *   <name>.docs  one JSON record per line (the chunk, its tier and doc id)
 *
 * The encoder is segment-builder.ts (streaming, one doc at a time); this module holds the shared
 * definitions the readers (segment.ts) use too.
 */
import type { DocRecord, FieldTokens } from '../text/types.js';

export interface BuiltDoc {
  record: DocRecord;
  tokens: FieldTokens;
}

/** A segment's files, `<name>.<ext>`, in this order wherever they are listed. */
export const SEGMENT_EXTS = ['dict', 'post', 'didx', 'docs'] as const;

export interface SegmentFiles {
  dict: Uint8Array;
  post: Uint8Array;
  didx: Uint8Array;
  docs: Uint8Array;
}

/** FNV-1a over UTF-16 code units: stable, fast, the same in every process. */
export function termHash(term: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < term.length; i++) {
    h ^= term.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * Postings longer than this are stored in impact order (see engine.ts POSTING_CAP, which is larger);
 * a query reads shorter ones whole. At 4,096, a term in up to a sixth of a 25,000-chunk segment was
 * in doc order: a share of it was its first chunks, not its best.
 */
export const IMPACT_SORT_MIN = 256;

export function shardCountFor(terms: number): number {
  let n = 1;
  while (n < 4096 && terms / n > 128) n *= 2;
  return n;
}
