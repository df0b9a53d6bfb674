/**
 * Readers of segments (see segment-format.ts). A disk segment opens its files lazily and reads only
 * the dictionary shards and posting runs of the query's terms; a memory segment holds chunks built
 * in this process (the search-time overlay of files changed since the last `mem index`, or the whole
 * tier when the index is missing). Both answer the same four questions, so the query path does not
 * care where a chunk lives.
 */
import fs from 'node:fs';
import path from 'node:path';
import { impactOrder } from './impact-order.js';
import { IMPACT_SORT_MIN, termHash, type BuiltDoc } from './segment-format.js';
import { fieldLength } from '../text/cjk.js';
import type { DocRecord } from '../text/types.js';

export interface Segment {
  readonly first: number;
  readonly count: number;
  /** Posting pairs (doc, field << 24 | tf) in impact order, at most `cap` pairs; undefined when absent. */
  posting(term: string, cap: number): Uint32Array | undefined;
  /** Pairs stored for the term (0 when absent), from the dictionary alone. */
  pairs(term: string): number;
  /** Title, body and id lengths of a doc of this segment. */
  lengths(doc: number): [number, number, number];
  /** The same lengths written into `into` at `at` (no array per doc: read-docs.ts). */
  fieldLengths(doc: number, into: Float64Array, at: number): void;
  record(doc: number): DocRecord;
  close(): void;
}

type DictEntry = [number, number, number];

export class DiskSegment implements Segment {
  private fds = new Map<string, number>();
  /** Shard number → its JSON text; term → its entry (undefined: not in this segment). */
  private shards = new Map<number, string>();
  private entries = new Map<string, DictEntry | undefined>();
  private head?: Uint32Array;
  private didx?: Uint32Array;

  constructor(
    private readonly base: string,
    readonly first: number,
    readonly count: number,
  ) {}

  static open(dir: string, name: string, first: number, count: number): DiskSegment {
    return new DiskSegment(path.join(dir, name), first, count);
  }

  private fd(ext: string): number {
    let fd = this.fds.get(ext);
    if (fd === undefined) this.fds.set(ext, (fd = fs.openSync(`${this.base}.${ext}`, 'r')));
    return fd;
  }

  private read(ext: string, offset: number, length: number): Buffer {
    const buf = Buffer.allocUnsafe(length);
    let got = 0;
    while (got < length) {
      const n = fs.readSync(this.fd(ext), buf, got, length - got, offset + got);
      if (n === 0) throw new Error(`${this.base}.${ext}: truncated`);
      got += n;
    }
    return buf;
  }

  private u32(ext: string, offset: number, count: number): Uint32Array {
    const b = this.read(ext, offset, count * 4);
    return new Uint32Array(b.buffer, b.byteOffset, count);
  }

  /**
   * A term's dictionary entry, found in its shard's JSON text without parsing the shard: a query's
   * terms and the feedback's candidate words (query/feedback.ts) read one entry each from shards of
   * about 128 terms, and parsing whole shards was most of the feedback's cost at 10,000 files (40 ms).
   * A key is `"term":[` right after `{` or `,` (values are arrays of numbers, keys unique).
   */
  private entry(term: string): DictEntry | undefined {
    if (!this.head) {
      const n = this.u32('dict', 0, 1)[0]!;
      this.head = this.u32('dict', 0, n + 2);
    }
    if (this.entries.has(term)) return this.entries.get(term);
    const n = this.head[0]!;
    const shard = termHash(term) % n;
    let text = this.shards.get(shard);
    if (text === undefined) {
      const from = this.head[shard + 1]!;
      const to = this.head[shard + 2]!;
      text = this.read('dict', (n + 2) * 4 + from, to - from).toString('utf8');
      this.shards.set(shard, text);
    }
    const key = `${JSON.stringify(term)}:[`;
    let at = text.indexOf(key);
    while (at > 0 && text[at - 1] !== '{' && text[at - 1] !== ',') at = text.indexOf(key, at + 1);
    const found =
      at < 0
        ? undefined
        : (text
            .slice(at + key.length, text.indexOf(']', at + key.length))
            .split(',')
            .map(Number) as DictEntry);
    this.entries.set(term, found);
    return found;
  }

  pairs(term: string): number {
    return this.entry(term)?.[2] ?? 0;
  }

  posting(term: string, cap: number): Uint32Array | undefined {
    const e = this.entry(term);
    if (!e) return undefined;
    return this.u32('post', e[1] * 8, Math.min(e[2], cap) * 2);
  }

  private index(): Uint32Array {
    if (!this.didx) {
      const size = fs.fstatSync(this.fd('didx')).size;
      this.didx = this.u32('didx', 0, size / 4);
      if (this.didx[0] !== this.first || this.didx[1] !== this.count)
        throw new Error(`${this.base}.didx: does not match the tier file`);
    }
    return this.didx;
  }

  lengths(doc: number): [number, number, number] {
    const d = this.index();
    const at = 2 + (doc - this.first) * 4;
    return [d[at + 1]!, d[at + 2]!, d[at + 3]!];
  }

  fieldLengths(doc: number, into: Float64Array, at: number): void {
    const d = this.index();
    const from = 2 + (doc - this.first) * 4;
    into[at] = d[from + 1]!;
    into[at + 1] = d[from + 2]!;
    into[at + 2] = d[from + 3]!;
  }

  record(doc: number): DocRecord {
    const d = this.index();
    const at = 2 + (doc - this.first) * 4;
    const from = d[at]!;
    const to = d[at + 4]!;
    return JSON.parse(this.read('docs', from, to - from).toString('utf8')) as DocRecord;
  }

  close(): void {
    for (const fd of this.fds.values()) fs.closeSync(fd);
    this.fds.clear();
  }
}

/** A segment built in memory (search-time overlay and the no-index fallback). */
export class MemorySegment implements Segment {
  private readonly postings = new Map<string, Uint32Array>();
  private readonly docs: BuiltDoc[];
  /** Title, body and id lengths of each doc (cjk.ts fieldLength). */
  private readonly lens: Uint32Array;
  /** Their sums over the docs, for the view's average lengths. */
  readonly lenSum: [number, number, number] = [0, 0, 0];

  constructor(
    docs: BuiltDoc[],
    readonly first: number,
  ) {
    this.docs = docs;
    const post = new Map<string, number[]>();
    for (const { record, tokens } of docs) {
      tokens.forEach((list, field) => {
        const tf = new Map<string, number>();
        for (const t of list) tf.set(t, (tf.get(t) ?? 0) + 1);
        for (const [term, n] of tf) {
          let p = post.get(term);
          if (!p) post.set(term, (p = []));
          p.push(record.doc, (field << 24) | n);
        }
      });
    }
    this.lens = new Uint32Array(docs.length * 3);
    docs.forEach((d, i) =>
      d.tokens.forEach((list, f) => {
        const n = fieldLength(list);
        this.lens[i * 3 + f] = n;
        this.lenSum[f] = this.lenSum[f]! + n;
      }),
    );
    // In impact order past IMPACT_SORT_MIN, as a segment on disk: a query reads a share of those.
    const body = (doc: number) => this.lens[(doc - first) * 3 + 1]!;
    for (const [term, p] of post) {
      const run = new Uint32Array(p);
      if (run.length / 2 > IMPACT_SORT_MIN) impactOrder(run, 0, run.length / 2, body);
      this.postings.set(term, run);
    }
  }

  get count(): number {
    return this.docs.length;
  }

  pairs(term: string): number {
    return (this.postings.get(term)?.length ?? 0) / 2;
  }

  posting(term: string, cap: number): Uint32Array | undefined {
    const p = this.postings.get(term);
    return p && p.length > cap * 2 ? p.subarray(0, cap * 2) : p;
  }

  lengths(doc: number): [number, number, number] {
    const at = (doc - this.first) * 3;
    return [this.lens[at]!, this.lens[at + 1]!, this.lens[at + 2]!];
  }

  fieldLengths(doc: number, into: Float64Array, at: number): void {
    into.set(this.lengths(doc), at);
  }

  record(doc: number): DocRecord {
    return this.docs[doc - this.first]!.record;
  }

  close(): void {}
}
