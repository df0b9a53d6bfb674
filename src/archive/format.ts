/**
 * The archive tier's segment format (pure: docs in, bytes out). One index update writes one segment
 * of three files and never touches an older one, so only new transcript lines cost anything:
 *   seg-N.docs.jsonl  one JSON line per turn window (redacted text, file, turns, time, bytes)
 *   seg-N.meta.bin    per doc, 7 u32: line offset, line length, tokens, time (s), file no, first, last turn
 *   seg-N.post        a 256-shard table (2 u32 each), then `term\tdoc:tf,doc:tf` lines grouped by shard
 * A query reads the table and the shards of its own terms only, never the whole index.
 */
import { tokenize } from '../search/text/tokenize.js';

export const SHARDS = 256;
export const META_U32 = 7;
const HEADER_BYTES = SHARDS * 8;

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

export interface BuiltSegment {
  docs: string;
  meta: Uint8Array;
  post: Uint8Array;
  tokens: number;
}

/** FNV-1a of a term, to its shard. */
export function shardOf(term: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < term.length; i++) h = Math.imul(h ^ term.charCodeAt(i), 0x01000193);
  return (h >>> 0) % SHARDS;
}

/** What one window puts in its segment: its JSON line and the line's bytes, its terms' frequencies and count, its time in seconds. */
export function docEntry(d: ArchiveDoc): {
  line: string;
  len: number;
  tf: Map<string, number>;
  terms: number;
  secs: number;
} {
  const line = JSON.stringify(d) + '\n';
  const terms = d.purged ? [] : tokenize(d.x);
  const tf = new Map<string, number>();
  for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
  const secs = d.t ? Math.max(0, Math.floor(Date.parse(d.t) / 1000)) || 0 : 0;
  return { line, len: Buffer.byteLength(line), tf, terms: terms.length, secs };
}

export function buildSegment(docs: ArchiveDoc[]): BuiltSegment {
  const meta = new Uint32Array(docs.length * META_U32);
  const shards: Array<Map<string, string[]>> = Array.from({ length: SHARDS }, () => new Map());
  const lines: string[] = [];
  let offset = 0;
  let total = 0;
  docs.forEach((d, i) => {
    const { line, len, tf, terms, secs } = docEntry(d);
    for (const [t, n] of tf) {
      const shard = shards[shardOf(t)]!;
      const list = shard.get(t);
      if (list) list.push(`${i}:${n}`);
      else shard.set(t, [`${i}:${n}`]);
    }
    meta.set([offset, len, terms, secs, d.f, d.a, d.b], i * META_U32);
    lines.push(line);
    offset += len;
    total += terms;
  });
  const header = new Uint32Array(SHARDS * 2);
  const bodies: Buffer[] = [];
  let at = 0;
  shards.forEach((m, s) => {
    const text = [...m].map(([t, list]) => `${t}\t${list.join(',')}\n`).join('');
    const buf = Buffer.from(text);
    header[s * 2] = at;
    header[s * 2 + 1] = buf.length;
    bodies.push(buf);
    at += buf.length;
  });
  const post = Buffer.concat([Buffer.from(header.buffer), ...bodies]);
  return { docs: lines.join(''), meta: new Uint8Array(meta.buffer), post, tokens: total };
}

/** Where a shard's lines are in a `.post` file: [offset, length], offsets counted from the file start. */
export function shardRange(header: Uint32Array, shard: number): [number, number] {
  return [HEADER_BYTES + header[shard * 2]!, header[shard * 2 + 1]!];
}

export { HEADER_BYTES };

/** The postings of one term in a shard's text: [doc, tf] pairs. */
export function termPostings(shardText: string, term: string): Array<[number, number]> {
  const key = `${term}\t`;
  let at = shardText.startsWith(key) ? 0 : shardText.indexOf(`\n${key}`);
  if (at < 0) return [];
  if (at > 0) at += 1;
  const end = shardText.indexOf('\n', at);
  const list = shardText.slice(at + key.length, end < 0 ? undefined : end);
  return list.split(',').map((p) => {
    const c = p.indexOf(':');
    return [Number(p.slice(0, c)), Number(p.slice(c + 1))];
  });
}
