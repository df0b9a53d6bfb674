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
 */
import type { DocRecord, FieldTokens } from './types.js';

export interface BuiltDoc {
  record: DocRecord;
  tokens: FieldTokens;
}

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

/** Postings longer than this are stored in impact order (see engine.ts POSTING_CAP, which is larger). */
export const IMPACT_SORT_MIN = 4096;

export function shardCountFor(terms: number): number {
  let n = 1;
  while (n < 4096 && terms / n > 128) n *= 2;
  return n;
}

export function encodeSegment(docs: BuiltDoc[], first: number, cap = IMPACT_SORT_MIN): SegmentFiles {
  // Terms get small integer ids so each token costs one map look-up; counts are reset per field.
  const termIds = new Map<string, number>();
  const lists: number[][] = [];
  const counts: number[] = [];
  const lens = new Map<number, number>();
  const touched: number[] = [];
  for (const { record, tokens } of docs) {
    for (let field = 0; field < 3; field++) {
      for (const t of tokens[field]!) {
        let id = termIds.get(t);
        if (id === undefined) {
          id = lists.length;
          termIds.set(t, id);
          lists.push([]);
          counts.push(0);
        }
        const n = counts[id]!;
        if (n === 0) touched.push(id);
        counts[id] = n + 1;
      }
      for (const id of touched) {
        lists[id]!.push(record.doc, (field << 24) | Math.min(counts[id]!, 0xffffff));
        counts[id] = 0;
      }
      touched.length = 0;
    }
    lens.set(record.doc, tokens[1].length);
  }
  const postings = new Map<string, number[]>();
  for (const [term, id] of termIds) postings.set(term, lists[id]!);
  const terms = [...postings.keys()].sort();
  const shards = shardCountFor(terms.length);
  const shardTerms: Record<string, [number, number, number]>[] = Array.from({ length: shards }, () => ({}));
  let size = 0;
  for (const p of postings.values()) size += p.length;
  const post = new Uint32Array(size);
  let at = 0;
  for (const term of terms) {
    const p = postings.get(term)!;
    const n = p.length / 2;
    let df = 0;
    let last = -1;
    for (let i = 0; i < p.length; i += 2) if (p[i] !== last) (df++, (last = p[i]!));
    shardTerms[termHash(term) % shards]![term] = [df, at / 2, n];
    if (n > cap) {
      // Impact order (tf, then shorter body) only matters where a read may be capped.
      const order = Array.from({ length: n }, (_, i) => i);
      order.sort((a, b) => (p[b * 2 + 1]! & 0xffffff) - (p[a * 2 + 1]! & 0xffffff) || (lens.get(p[a * 2]!) ?? 0) - (lens.get(p[b * 2]!) ?? 0));
      for (const i of order) (post[at++] = p[i * 2]!), (post[at++] = p[i * 2 + 1]!);
    } else {
      post.set(p, at);
      at += p.length;
    }
  }
  const enc = new TextEncoder();
  const bodies = shardTerms.map((o) => enc.encode(JSON.stringify(o)));
  const head = new Uint32Array(shards + 2);
  head[0] = shards;
  let off = 0;
  bodies.forEach((b, i) => {
    head[i + 1] = off;
    off += b.length;
  });
  head[shards + 1] = off;
  const dict = concat([new Uint8Array(head.buffer), ...bodies]);

  const lines = docs.map((d) => enc.encode(JSON.stringify(d.record) + '\n'));
  const didx = new Uint32Array(2 + docs.length * 4 + 1);
  didx[0] = first;
  didx[1] = docs.length;
  let pos = 0;
  docs.forEach((d, i) => {
    didx.set([pos, d.tokens[0].length, d.tokens[1].length, d.tokens[2].length], 2 + i * 4);
    pos += lines[i]!.length;
  });
  didx[2 + docs.length * 4] = pos;
  return { dict, post: new Uint8Array(post.buffer), didx: new Uint8Array(didx.buffer), docs: concat(lines) };
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
