/**
 * Streaming encoder of one segment (the format is described in segment-format.ts). Docs are added
 * one at a time and consumed at once: each token becomes a small integer term id, each (term, doc,
 * field) a posting triple in a growing typed array, each record its JSON line in a growing byte
 * buffer. So a rebuild never keeps the tokens of more than one file alive, and the garbage collector
 * sees a few large arrays instead of millions of small long-lived ones.
 *
 * Docs are numbered from the constructor's `first`; finish(first) may give another first id, so a
 * worker thread can build a segment before it knows how many docs the files before its own
 * produced (parallel-build.ts): postings keep relative ids until finish, and the JSON lines, whose
 * last key is always `doc`, are renumbered then.
 *
 * Invariant: finish(first) gives byte for byte what the batch encoder always gave for the same docs
 * in the same order with ids first, first+1, ...: terms sorted by UTF-16 code units, hash shards of
 * `{term: [df, start, pairs]}` JSON, posting runs in (doc, field) order, runs longer than `cap` pairs
 * in impact order (term frequency descending, then shorter body, then original position), one JSON
 * record per line.
 */
import { impactOrder } from './impact-order.js';
import { encodeDict } from './segment-dict.js';
import { IMPACT_SORT_MIN, type BuiltDoc, type SegmentFiles } from './segment-format.js';
import { TermIds, TermTable } from './term-table.js';
import type { DocRecord, FieldTokens } from '../text/types.js';

function grow32(a: Uint32Array<ArrayBuffer>, need: number): Uint32Array<ArrayBuffer> {
  if (need <= a.length) return a;
  let size = a.length * 2;
  while (size < need) size *= 2;
  const b = new Uint32Array(size);
  b.set(a);
  return b;
}

/** A record without its doc id (the builder numbers docs). */
export type PendingRecord = Omit<DocRecord, 'doc'>;

export class SegmentBuilder {
  private readonly table = new TermTable();
  /** Reusable buffer of one doc's term ids (see addIds). */
  readonly ids = new TermIds(this.table);
  /** Per term id: term frequency in the current field, pairs, docs, last doc seen. */
  private tf = new Uint32Array(1024);
  private pairs = new Uint32Array(1024);
  private df = new Uint32Array(1024);
  private lastDoc = new Int32Array(1024).fill(-1);
  private readonly touched: number[] = [];
  /** Posting triples (term id, relative doc, field << 24 | tf) in insertion order. */
  private triples = new Uint32Array(3 << 16);
  private tripleCount = 0;
  /** Per doc: offset of its JSON line (without the closing `,"doc":N}`), title/body/id lengths. */
  private didx = new Uint32Array(4 << 10);
  private docs = Buffer.allocUnsafe(1 << 20);
  private docsBytes = 0;
  private n = 0;
  /** Sums of the added docs' title/body/id lengths. */
  readonly lenSum: [number, number, number] = [0, 0, 0];

  /** `first`: the id of the first doc when known now (add() checks ids against it); finish() may take another. */
  constructor(
    readonly first = 0,
    private readonly cap = IMPACT_SORT_MIN,
    previous?: SegmentBuilder,
  ) {
    // The previous segment's scratch arrays (overwritten before they are read): no fresh pages to fault in.
    if (previous) {
      this.triples = previous.triples;
      this.didx = previous.didx;
    }
  }

  get count(): number {
    return this.n;
  }

  /** Bytes held so far (JSON lines and postings), to bound a segment's size. */
  get bytes(): number {
    return this.docsBytes + this.tripleCount * 12;
  }

  /** Per-term arrays follow the table's size. */
  private fit(size: number): void {
    if (size <= this.tf.length) return;
    let n = this.tf.length * 2;
    while (n < size) n *= 2;
    this.tf = grow32(this.tf, n);
    this.pairs = grow32(this.pairs, n);
    this.df = grow32(this.df, n);
    const last = new Int32Array(n).fill(-1);
    last.set(this.lastDoc);
    this.lastDoc = last;
  }

  /** Adds the next doc (its id must be first + count) from its tokens, field by field. */
  add(record: DocRecord, tokens: FieldTokens): void {
    const { doc, ...rest } = record;
    if (doc !== this.first + this.n)
      throw new Error(`segment builder: doc ${doc} out of order (expected ${this.first + this.n})`);
    const ids = this.ids;
    ids.reset();
    for (let field = 0; field < 3; field++) {
      for (const t of tokens[field]!) ids.term(t);
      ids.endField();
    }
    this.addIds(rest);
  }

  /**
   * Adds the next doc from the term ids in `this.ids` (TermIds, its three fields ended): ids[0, ends[0])
   * are the title field, then body up to ends[1], then id up to ends[2]; `lens` their lengths.
   */
  addIds(record: PendingRecord): void {
    const { buf: ids, ends, lens } = this.ids;
    const doc = this.n;
    this.fit(this.table.size);
    const tf = this.tf;
    const pairs = this.pairs;
    const df = this.df;
    const lastDoc = this.lastDoc;
    const touched = this.touched;
    let from = 0;
    for (let field = 0; field < 3; field++) {
      const to = ends[field]!;
      for (let i = from; i < to; i++) {
        const id = ids[i]!;
        const v = tf[id]!;
        tf[id] = v + 1;
        if (v === 0) touched.push(id);
      }
      from = to;
      if (!touched.length) continue;
      this.triples = grow32(this.triples, (this.tripleCount + touched.length) * 3);
      const tr = this.triples;
      let at = this.tripleCount * 3;
      for (const id of touched) {
        tr[at++] = id;
        tr[at++] = doc;
        tr[at++] = (field << 24) | Math.min(tf[id]!, 0xffffff);
        tf[id] = 0;
        pairs[id] = pairs[id]! + 1;
        if (lastDoc[id] !== doc) {
          lastDoc[id] = doc;
          df[id] = df[id]! + 1;
        }
      }
      this.tripleCount += touched.length;
      touched.length = 0;
    }
    this.didx = grow32(this.didx, (this.n + 1) * 4);
    // `{...,"tier":"warm"}` without its `}`: finish() closes it with `,"doc":N}\n`.
    const json = JSON.stringify(record);
    const need = this.docsBytes + json.length * 3 + 32;
    if (need > this.docs.length) {
      let size = this.docs.length * 2;
      while (size < need) size *= 2;
      const b = Buffer.allocUnsafe(size);
      this.docs.copy(b, 0, 0, this.docsBytes);
      this.docs = b;
    }
    const d = this.n * 4;
    this.didx[d] = this.docsBytes;
    this.didx[d + 1] = lens[0]!;
    this.didx[d + 2] = lens[1]!;
    this.didx[d + 3] = lens[2]!;
    for (let i = 0; i < 3; i++) this.lenSum[i] = this.lenSum[i]! + lens[i]!;
    // The line is closed with the id it gets if finish() keeps this.first (finish(first) renumbers).
    this.docsBytes += this.docs.write(json, this.docsBytes, 'utf8') - 1;
    this.docsBytes += this.docs.write(`,"doc":${this.first + doc}}\n`, this.docsBytes, 'latin1');
    this.n++;
  }

  finish(first = this.first): SegmentFiles {
    const table = this.table;
    const { dict, start, pairs } = encodeDict(table, this.df, this.pairs);
    const post = new Uint32Array(pairs * 2);
    const cursor = start.slice();
    const tr = this.triples;
    for (let i = 0, end = this.tripleCount * 3; i < end; i += 3) {
      const t = tr[i]!;
      const p = cursor[t]! * 2;
      cursor[t] = cursor[t]! + 1;
      post[p] = tr[i + 1]!;
      post[p + 1] = tr[i + 2]!;
    }
    // Impact order compares body lengths of relative ids; ids become absolute after it.
    const lengths = this.didx;
    const bodyLength = (doc: number) => lengths[doc * 4 + 2]!;
    for (let id = 0; id < table.size; id++)
      if (this.pairs[id]! > this.cap) impactOrder(post, start[id]!, this.pairs[id]!, bodyLength);
    if (first) for (let i = 0; i < post.length; i += 2) post[i] = post[i]! + first;

    const didx = new Uint32Array(2 + this.n * 4 + 1);
    didx[0] = first;
    didx[1] = this.n;
    didx.set(this.didx.subarray(0, this.n * 4), 2);
    didx[2 + this.n * 4] = this.docsBytes;
    const docs = first === this.first ? this.docs.subarray(0, this.docsBytes) : this.renumber(first, didx);
    return { dict, post: new Uint8Array(post.buffer), didx: new Uint8Array(didx.buffer), docs };
  }

  /** The JSON lines with ids first, first+1, ... instead of this.first, ...; fixes didx's offsets. */
  private renumber(first: number, didx: Uint32Array): Uint8Array {
    let size = this.docsBytes;
    for (let i = 0; i < this.n; i++) size += String(first + i).length - String(this.first + i).length;
    const docs = Buffer.allocUnsafe(size);
    let pos = 0;
    for (let i = 0; i < this.n; i++) {
      const from = this.didx[i * 4]!;
      const to = (i + 1 < this.n ? this.didx[(i + 1) * 4]! : this.docsBytes) - (9 + String(this.first + i).length);
      didx[2 + i * 4] = pos;
      pos += this.docs.copy(docs, pos, from, to);
      pos += docs.write(`,"doc":${first + i}}\n`, pos, 'latin1');
    }
    didx[2 + this.n * 4] = pos;
    return docs;
  }
}

/** The whole segment of docs first, first+1, ... in one call (the batch form of the builder). */
export function encodeSegment(docs: BuiltDoc[], first: number, cap = IMPACT_SORT_MIN): SegmentFiles {
  const b = new SegmentBuilder(first, cap);
  for (const d of docs) b.add(d.record, d.tokens);
  return b.finish();
}
