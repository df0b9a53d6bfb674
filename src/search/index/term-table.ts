/**
 * Term ids for the index builder: an open-addressing hash table from term to a small integer, whose
 * look-up also takes a span of a larger string (text, start, end), so a token already seen costs no
 * string allocation at all (the tokenizer finds words in place). Invariant: one id per distinct
 * term, ids dense from 0 in first-seen order; `hashOf(id)` is termHash(term) (FNV-1a over UTF-16
 * code units, segment-format.ts), so the dictionary shards need no second hash.
 */
import { cjkTokens, isHanUnigram } from '../text/cjk.js';
import { scanTokens, stemAt, type TokenSink } from '../text/tokenize.js';

export class TermTable {
  readonly terms: string[] = [];
  private hashes = new Uint32Array(1024);
  /** Pairs (id + 1, hash | 0), 0 = empty: a probe reads one cache line; at most half full. */
  private slots = new Int32Array(8192);
  private mask = 4095;

  get size(): number {
    return this.terms.length;
  }

  hashOf(id: number): number {
    return this.hashes[id]!;
  }

  /** Id of text.slice(start, end), added when new. */
  idOfSpan(text: string, start: number, end: number): number {
    let h = 0x811c9dc5;
    for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    return this.idOfHashed(text, start, end, h);
  }

  /** idOfSpan with the span's termHash already computed (as a 32-bit integer of either sign). */
  idOfHashed(text: string, start: number, end: number, hash: number): number {
    const h = hash | 0;
    const len = end - start;
    const slots = this.slots;
    let s = h & this.mask;
    for (;;) {
      const v = slots[s * 2]!;
      if (v === 0) break;
      if (slots[s * 2 + 1] === h) {
        const t = this.terms[v - 1]!;
        if (t.length === len && text.startsWith(t, start)) return v - 1;
      }
      s = (s + 1) & this.mask;
    }
    return this.insert(text.slice(start, end), h, s);
  }

  idOf(term: string): number {
    return this.idOfSpan(term, 0, term.length);
  }

  private insert(term: string, h: number, slot: number): number {
    const id = this.terms.length;
    this.terms.push(term);
    if (id >= this.hashes.length) {
      const hashes = new Uint32Array(this.hashes.length * 2);
      hashes.set(this.hashes);
      this.hashes = hashes;
    }
    this.hashes[id] = h >>> 0;
    this.slots[slot * 2] = id + 1;
    this.slots[slot * 2 + 1] = h;
    if ((id + 1) * 2 > this.mask + 1) this.rehash();
    return id;
  }

  private rehash(): void {
    const size = (this.mask + 1) * 2;
    const slots = new Int32Array(size * 2);
    const mask = size - 1;
    for (let id = 0; id < this.terms.length; id++) {
      const h = this.hashes[id]! | 0;
      let s = h & mask;
      while (slots[s * 2] !== 0) s = (s + 1) & mask;
      slots[s * 2] = id + 1;
      slots[s * 2 + 1] = h;
    }
    this.slots = slots;
    this.mask = mask;
  }
}

/**
 * A TokenSink that turns a doc's tokens into term ids of one table, field after field (endField
 * after each of the three), with each field's length as cjk.ts fieldLength counts it.
 */
export class TermIds implements TokenSink {
  buf = new Uint32Array(4096);
  length = 0;
  /** Where each field's ids end in `buf`, and each field's length. */
  readonly ends: [number, number, number] = [0, 0, 0];
  readonly lens: [number, number, number] = [0, 0, 0];
  private field = 0;
  private counted = 0;
  private readonly cjkOut: string[] = [];

  constructor(readonly table: TermTable) {}

  reset(): void {
    this.length = 0;
    this.field = 0;
    this.counted = 0;
  }

  endField(): void {
    this.ends[this.field] = this.length;
    this.lens[this.field++] = this.counted;
    this.counted = 0;
  }

  private push(id: number, counts = true): void {
    if (this.length === this.buf.length) {
      const b = new Uint32Array(this.buf.length * 2);
      b.set(this.buf);
      this.buf = b;
    }
    this.buf[this.length++] = id;
    if (counts) this.counted++;
  }

  word(text: string, start: number, end: number, hash: number): void {
    this.push(this.table.idOfHashed(text, start, end, hash));
  }

  stem(text: string, start: number): void {
    this.push(this.table.idOf(stemAt(text, start)));
  }

  cjk(run: string): void {
    const out = this.cjkOut;
    cjkTokens(run, out, true);
    for (const t of out) this.push(this.table.idOf(t), !isHanUnigram(t));
    out.length = 0;
  }

  /** The tokens of already folded text. */
  text(folded: string): void {
    scanTokens(folded, this);
  }

  term(t: string): void {
    this.push(this.table.idOf(t), !isHanUnigram(t));
  }
}
