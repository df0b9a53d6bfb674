/**
 * Lexical ranking over any set of segments, with minisearch's BM25 as the engine. Only the postings
 * of the query's terms are read; they are handed to minisearch as the state its documented
 * serialised form loads into (version pinned in package.json; see direct()) together with the
 * collection-wide document count and average field lengths, so a score is the score the whole index
 * would give, whichever shards were read.
 *
 * Very common terms are bounded without AND-only matching: a term found in more than an eighth of
 * the chunks (and over MIN_COMMON of them) is dropped when the query has rarer terms, and the pairs
 * read for one term are capped at POSTING_CAP in impact order, so no query scores 100,000 chunks. A
 * capped term's BM25 weight is corrected (boostTerm) to the IDF of its true document frequency.
 */
import MiniSearch from 'minisearch';
import type { Segment } from './segment.js';
import { FIELDS } from './types.js';

/** Posting pairs read per term over all segments (each segment gives its impact-ordered head). */
export const POSTING_CAP = 5_000;
const MIN_COMMON = 1_000;
export const BOOST = { title: 2, body: 1, id: 3 };
/** minisearch 7.2.0's default BM25 parameters, passed explicitly: the cut-off below computes with them too. */
export const BM25 = { k: 1.2, b: 0.7, d: 0.5 };

export interface TierView {
  segments: Segment[];
  isDead: (doc: number) => boolean;
  docCount: number;
  avgLen: [number, number, number];
}

export interface LexicalHit {
  doc: number;
  score: number;
  terms: string[];
  segment: Segment;
}

export function keptTerms(view: TierView, terms: string[]): string[] {
  const pairs = terms.map((t) => view.segments.reduce((n, s) => n + s.pairs(t), 0));
  const common = Math.max(MIN_COMMON, view.docCount / 8);
  const rare = terms.filter((_, i) => pairs[i]! > 0 && pairs[i]! <= common);
  return rare.length ? rare : terms.filter((_, i) => pairs[i]! > 0);
}

/** The loaded state direct() replaces (protected in minisearch's types). */
type Internals = Record<'_index' | '_documentIds' | '_idToShortId' | '_fieldLength', unknown>;

/** One term's postings in one field: docs ascending with their term frequencies. */
interface Run {
  docs: number[];
  tfs: number[];
}

/** What minisearch needs to rank, gathered from the segments. */
interface Postings {
  documentCount: number;
  nextId: number;
  avgLen: number[];
  /** Every doc of the postings, and its [title, body, id] lengths. */
  lengths: Map<number, number[]>;
  /** Per term, per field id, its run. */
  index: [string, Map<number, Run>][];
}

const FIELD_IDS = Object.fromEntries(FIELDS.map((f, i) => [f, i]));
const identity = (s: string) => [s];
const OPTIONS = { fields: [...FIELDS], tokenize: identity, processTerm: (t: string) => t };

/** doc → tf of a run, in order: every doc, or the kept ones with the run's full length as `size`. */
function runMap(run: Run, keep?: Set<number>): Map<number, number> {
  const m = new Map<number, number>();
  for (let i = 0; i < run.docs.length; i++) if (!keep || keep.has(run.docs[i]!)) m.set(run.docs[i]!, run.tfs[i]!);
  // minisearch reads a doc map's size as the term's document frequency in that field.
  if (keep) Object.defineProperty(m, 'size', { value: run.docs.length });
  return m;
}

/** The documented serialised form (minisearch 7.2.0): objects keyed by doc id, read by loadJS; every doc. */
function viaLoadJS(p: Postings): MiniSearch {
  const obj = <V>(m: Map<number, V>) => Object.fromEntries(m) as Record<number, V>;
  const docs = [...p.lengths.keys()].sort((a, b) => a - b);
  return (MiniSearch as unknown as { loadJS(js: unknown, o: unknown): MiniSearch }).loadJS(
    {
      documentCount: p.documentCount, nextId: p.nextId,
      documentIds: Object.fromEntries(docs.map((d) => [d, d])),
      fieldIds: FIELD_IDS, fieldLength: obj(p.lengths), averageFieldLength: p.avgLen, storedFields: {}, dirtCount: 0,
      index: p.index.map(([term, fields]) => [term, Object.fromEntries([...fields].map(([f, run]) => [f, obj(runMap(run))]))]),
      serializationVersion: 2,
    },
    OPTIONS,
  );
}

/**
 * The state MiniSearch.loadJS (7.2.0, pinned) builds from the serialised form, built from the
 * postings directly: loadJS turns every doc id of every object into a string and back (Object.keys,
 * parseInt), which cost more than the ranking itself on common terms. Same Maps, same insertion
 * order (docs ascending, as Object.keys gives them), so the same scores and the same order of ties;
 * a test compares both ways. Should a minisearch upgrade change these internals, the check below
 * sends every query through loadJS instead (every doc ranked).
 *
 * With `keep` (see candidates()), only those docs are handed over: each term's doc map holds the
 * kept docs but reports the term's full document count as its size, which is what minisearch reads
 * as the document frequency, so the kept docs score exactly as among all.
 */
function direct(p: Postings, keep?: Set<number>): MiniSearch {
  const loaded = viaLoadJS({ ...p, lengths: new Map(), index: [] });
  const ms = loaded as unknown as Internals;
  const index = ms._index as { set?: unknown } | undefined;
  if (!(ms._documentIds instanceof Map) || !(ms._idToShortId instanceof Map) || !(ms._fieldLength instanceof Map) || typeof index?.set !== 'function') return viaLoadJS(p);
  const ids = new Map<number, number>();
  const lengths = new Map<number, number[]>();
  for (const [doc, len] of p.lengths) {
    if (keep && !keep.has(doc)) continue;
    ids.set(doc, doc);
    lengths.set(doc, len);
  }
  ms._documentIds = ids;
  // Short ids are the doc ids themselves; the reverse map is only read by add/remove, never by search.
  ms._idToShortId = ids;
  ms._fieldLength = lengths;
  for (const [term, fields] of p.index) {
    const byField = new Map<number, Map<number, number>>();
    for (const [f, run] of fields) byField.set(f, runMap(run, keep));
    (index.set as (k: string, v: unknown) => void).call(index, term, byField);
  }
  return loaded;
}

/** A run with its docs ascending (the order of Object.keys over integer keys, which loadJS would see). */
function ascending(docs: number[], tfs: number[]): Run {
  let sorted = true;
  for (let i = 1; i < docs.length && sorted; i++) sorted = docs[i - 1]! < docs[i]!;
  if (sorted) return { docs, tfs };
  if (docs.some((d) => d >= 2 ** 29)) {
    const order = Array.from(docs.keys()).sort((a, b) => docs[a]! - docs[b]!);
    return { docs: order.map((i) => docs[i]!), tfs: order.map((i) => tfs[i]!) };
  }
  // Impact-ordered runs: sort (doc, tf) packed into one exact float (doc < 2^29, tf < 2^24), natively.
  const packed = new Float64Array(docs.length);
  for (let i = 0; i < docs.length; i++) packed[i] = docs[i]! * 0x1000000 + tfs[i]!;
  packed.sort();
  const out: Run = { docs: new Array<number>(docs.length), tfs: new Array<number>(docs.length) };
  for (let i = 0; i < packed.length; i++) {
    out.docs[i] = Math.floor(packed[i]! / 0x1000000);
    out.tfs[i] = packed[i]! % 0x1000000;
  }
  return out;
}

/** Relative slack of the cut-off below: far above floating-point error, far below any real score gap. */
const CUT_SLACK = 1e-9;

/**
 * The docs that can be among the `limit` best, by minisearch's own formula (BM25 with the
 * parameters it is given, term and field boosts, times the number of query terms matched) computed
 * here in one cheap pass over dense arrays: every doc whose score reaches the limit-th best, less a
 * slack, is kept; minisearch then scores those alone (direct()) while its document frequencies still
 * count every doc, so the kept docs' scores, their order and the top `limit` are exactly those of
 * ranking every doc (a test compares both). Undefined when there is nothing to cut.
 */
function candidates(p: Postings, idfFix: Map<string, number>, limit: number): Set<number> | undefined {
  const n = p.lengths.size;
  if (n <= limit) return undefined;
  const { k, b, d } = BM25;
  const slot = new Map<number, number>();
  const lens = new Float64Array(n * 3);
  const docOf = new Array<number>(n);
  for (const [doc, len] of p.lengths) {
    const i = slot.size;
    slot.set(doc, i);
    docOf[i] = doc;
    lens[i * 3] = len[0]!;
    lens[i * 3 + 1] = len[1]!;
    lens[i * 3 + 2] = len[2]!;
  }
  const score = new Float64Array(n);
  const matched = new Uint8Array(n);
  const stamp = new Int32Array(n).fill(-1);
  p.index.forEach(([term, fields], t) => {
    const termBoost = idfFix.get(term) ?? 1;
    for (let f = 0; f < FIELDS.length; f++) {
      const run = fields.get(f);
      if (!run) continue;
      const df = run.docs.length;
      const avg = p.avgLen[f]!;
      const idf = Math.log(1 + (p.documentCount - df + 0.5) / (df + 0.5));
      const boost = termBoost * BOOST[FIELDS[f]!];
      for (let j = 0; j < df; j++) {
        const i = slot.get(run.docs[j]!)!;
        const tf = run.tfs[j]!;
        score[i] = score[i]! + boost * (idf * (d + (tf * (k + 1)) / (tf + k * (1 - b + (b * lens[i * 3 + f]!) / avg))));
        if (stamp[i] !== t) {
          stamp[i] = t;
          matched[i] = matched[i]! + 1;
        }
      }
    }
  });
  const final = new Float64Array(n);
  for (let i = 0; i < n; i++) final[i] = score[i]! * matched[i]!;
  const threshold = Float64Array.from(final).sort()[n - limit]! * (1 - CUT_SLACK);
  const keep = new Set<number>();
  for (let i = 0; i < n; i++) if (final[i]! >= threshold) keep.add(docOf[i]!);
  return keep;
}

export function lexicalSearch(view: TierView, terms: string[], limit: number, opts: { viaLoadJS?: boolean } = {}): LexicalHit[] {
  const kept = keptTerms(view, terms);
  if (!kept.length || view.docCount === 0) return [];
  const owner = new Map<number, Segment>();
  const index: [string, Map<number, Run>][] = [];
  const perSegment = Math.ceil(POSTING_CAP / Math.max(1, view.segments.length));
  const idfFix = new Map<string, number>();
  for (const term of kept) {
    const byField: { docs: number[]; tfs: number[] }[] = [];
    let stored = 0;
    let read = 0;
    for (const seg of view.segments) {
      const total = seg.pairs(term);
      stored += total;
      const p = seg.posting(term, total > perSegment ? perSegment : total);
      read += p ? p.length / 2 : 0;
      if (!p) continue;
      for (let i = 0; i < p.length; i += 2) {
        const doc = p[i]!;
        if (view.isDead(doc)) continue;
        const f = (byField[p[i + 1]! >>> 24] ??= { docs: [], tfs: [] });
        f.docs.push(doc);
        f.tfs.push(p[i + 1]! & 0xffffff);
        if (!owner.has(doc)) owner.set(doc, seg);
      }
    }
    const fields = new Map<number, Run>();
    byField.forEach((f, field) => f && fields.set(field, ascending(f.docs, f.tfs)));
    if (fields.size) index.push([term, fields]);
    if (read < stored) {
      const n = view.docCount;
      const idf = (df: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));
      idfFix.set(term, idf(Math.min(stored, n)) / idf(Math.max(1, read)));
    }
  }
  const lengths = new Map<number, number[]>();
  let nextId = 0;
  for (const [doc, seg] of owner) {
    lengths.set(doc, seg.lengths(doc));
    if (doc >= nextId) nextId = doc + 1;
  }
  const postings: Postings = {
    documentCount: Math.max(view.docCount, owner.size),
    nextId,
    avgLen: view.avgLen.map((x) => Math.max(x, 1)),
    lengths,
    index,
  };
  // The reference path (tests): the documented serialised form, every doc ranked.
  const ms = opts.viaLoadJS ? viaLoadJS(postings) : direct(postings, candidates(postings, idfFix, limit));
  const results = ms.search({ combineWith: 'OR', queries: kept }, {
    boost: BOOST, bm25: BM25, tokenize: identity, processTerm: (t: string) => t, prefix: false, fuzzy: false,
    boostTerm: (term: string) => idfFix.get(term) ?? 1,
  });
  return results.slice(0, limit).map((r) => ({ doc: r.id as number, score: r.score, terms: r.terms, segment: owner.get(r.id as number)! }));
}
