/**
 * The docs one query reads (engine.ts), each with a slot in the order it was first read, its
 * segment and its title, body and id lengths in one Float64Array. Looking a doc up goes through a
 * dense table over the tier's doc ids, not a Map: a query reads some 20,000 pairs, and in a fresh
 * process (code not yet optimised) the Map and Set calls and the small length arrays per doc were
 * a good part of its lexical ranking. A tier whose doc ids spread far wider than its docs (never
 * the case today: segments are contiguous runs of ids) falls back to a Map.
 */
import type { Segment } from '../index/segment.js';

/** Largest doc id range given a dense table (its Int32Array is 4 bytes an id, zeroed by the allocator). */
const DENSE_RANGE = 1 << 22;

export class ReadDocs {
  /** Doc ids by slot. */
  readonly docs: number[] = [];
  /** Segment of each slot's doc. */
  private readonly segs: Segment[] = [];
  /** [title, body, id] lengths, three a slot. */
  lens = new Float64Array(3 * 1024);
  /** One past the largest doc id read. */
  nextId = 0;
  private readonly sorted: Segment[];
  private readonly lo: number;
  /** slot + 1 by doc id - lo (0: not read); a Map instead when the ids spread too far. */
  private readonly dense: Int32Array | undefined;
  private readonly sparse: Map<number, number> | undefined;

  constructor(segments: readonly Segment[]) {
    // An empty segment holds no doc, and one starting where another does would hide it from segmentOf.
    this.sorted = segments.filter((s) => s.count > 0).sort((a, b) => a.first - b.first);
    this.lo = this.sorted.length ? this.sorted[0]!.first : 0;
    const hi = this.sorted.reduce((m, s) => Math.max(m, s.first + s.count), this.lo);
    if (hi - this.lo <= DENSE_RANGE) this.dense = new Int32Array(hi - this.lo);
    else this.sparse = new Map();
  }

  /** The doc's slot, or -1 when it was not read. */
  slot(doc: number): number {
    return (this.dense ? (this.dense[doc - this.lo] ?? 0) : (this.sparse!.get(doc) ?? 0)) - 1;
  }

  /** Records a doc of one of the segments (once) and returns its slot. */
  add(doc: number): number {
    const known = this.slot(doc);
    if (known >= 0) return known;
    const seg = this.segmentOf(doc);
    const i = this.docs.length;
    this.docs.push(doc);
    this.segs.push(seg);
    if (this.dense) this.dense[doc - this.lo] = i + 1;
    else this.sparse!.set(doc, i + 1);
    if (3 * i + 3 > this.lens.length) {
      const grown = new Float64Array(this.lens.length * 2);
      grown.set(this.lens);
      this.lens = grown;
    }
    seg.fieldLengths(doc, this.lens, 3 * i);
    if (doc >= this.nextId) this.nextId = doc + 1;
    return i;
  }

  /** The segment a read doc came from. */
  segment(slot: number): Segment {
    return this.segs[slot]!;
  }

  /** The segment holding a doc id (segments are disjoint runs of ids). */
  private segmentOf(doc: number): Segment {
    let a = 0;
    let b = this.sorted.length - 1;
    while (a < b) {
      const m = (a + b + 1) >> 1;
      if (this.sorted[m]!.first <= doc) a = m;
      else b = m - 1;
    }
    const seg = this.sorted[a];
    if (!seg || doc < seg.first || doc >= seg.first + seg.count)
      throw new Error(`doc ${doc} is in no segment of the tier`);
    return seg;
  }
}
