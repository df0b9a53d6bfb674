/**
 * The `.dict` file of a segment (segment-format.ts): u32 shard count, u32 offsets, then per shard the
 * UTF-8 JSON `{term: [df, start, pairs]}` of the terms that hash to it. Invariant: each shard's bytes
 * are what JSON.stringify gives for the object built in term order (terms sorted by UTF-16 code units),
 * so integer-like terms come first, in numeric order, as JavaScript orders such keys.
 */
import { shardCountFor } from './segment-format.js';
import type { TermTable } from './term-table.js';

export interface EncodedDict {
  dict: Uint8Array;
  /** Per term id: the pair offset of its run in `.post` (runs are laid out in term order). */
  start: Uint32Array;
  /** Pairs in all runs. */
  pairs: number;
}

/** `df` and `pairs` are per term id of `table`. */
export function encodeDict(table: TermTable, df: Uint32Array, pairs: Uint32Array): EncodedDict {
  const terms = table.terms.slice().sort();
  const shards = shardCountFor(terms.length);
  // Per shard the `"term":[df,start,pairs]` members in term order; integer-like terms apart.
  const members: string[][] = Array.from({ length: shards }, () => []);
  const indexKeys: { term: string; member: string }[][] = Array.from({ length: shards }, () => []);
  const start = new Uint32Array(table.size);
  let at = 0;
  for (const term of terms) {
    const id = table.idOf(term);
    const n = pairs[id]!;
    start[id] = at;
    const shard = table.hashOf(id) % shards;
    const member = `${JSON.stringify(term)}:[${df[id]!},${at},${n}]`;
    if (isArrayIndex(term)) indexKeys[shard]!.push({ term, member });
    else members[shard]!.push(member);
    at += n;
  }
  const enc = new TextEncoder();
  const bodies = members.map((m, i) => {
    const ints = indexKeys[i]!;
    if (ints.length) m.unshift(...ints.sort((a, b) => Number(a.term) - Number(b.term)).map((k) => k.member));
    return enc.encode(`{${m.join(',')}}`);
  });
  const head = new Uint32Array(shards + 2);
  head[0] = shards;
  let off = 0;
  bodies.forEach((b, i) => {
    head[i + 1] = off;
    off += b.length;
  });
  head[shards + 1] = off;
  return { dict: concat([new Uint8Array(head.buffer), ...bodies]), start, pairs: at };
}

/** A property key that JavaScript objects order first, numerically: a canonical array index. */
function isArrayIndex(term: string): boolean {
  const c = term.charCodeAt(0);
  if (c < 48 || c > 57 || term.length > 10 || (c === 48 && term.length > 1)) return false;
  for (let i = 1; i < term.length; i++) {
    const d = term.charCodeAt(i);
    if (d < 48 || d > 57) return false;
  }
  return Number(term) < 4294967295;
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
