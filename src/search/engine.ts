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

/** What minisearch needs to rank: per term, per field id, doc → term frequency (docs ascending). */
interface Postings {
  documentCount: number;
  nextId: number;
  avgLen: number[];
  /** doc → [title, body, id] lengths, docs ascending. */
  lengths: Map<number, number[]>;
  index: [string, Map<number, Map<number, number>>][];
}

const FIELD_IDS = Object.fromEntries(FIELDS.map((f, i) => [f, i]));
const identity = (s: string) => [s];
const OPTIONS = { fields: [...FIELDS], tokenize: identity, processTerm: (t: string) => t };

/** The documented serialised form (minisearch 7.2.0): objects keyed by doc id, read by loadJS. */
function viaLoadJS(p: Postings): MiniSearch {
  const obj = <V>(m: Map<number, V>) => Object.fromEntries(m) as Record<number, V>;
  return (MiniSearch as unknown as { loadJS(js: unknown, o: unknown): MiniSearch }).loadJS(
    {
      documentCount: p.documentCount, nextId: p.nextId,
      documentIds: Object.fromEntries([...p.lengths.keys()].map((d) => [d, d])),
      fieldIds: FIELD_IDS, fieldLength: obj(p.lengths), averageFieldLength: p.avgLen, storedFields: {}, dirtCount: 0,
      index: p.index.map(([term, fields]) => [term, Object.fromEntries([...fields].map(([f, docs]) => [f, obj(docs)]))]),
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
  const lengths = keep ? new Map<number, number[]>() : p.lengths;
  for (const [doc, len] of p.lengths) {
    if (keep && !keep.has(doc)) continue;
    ids.set(doc, doc);
    if (keep) lengths.set(doc, len);
  }
  ms._documentIds = ids;
  // Short ids are the doc ids themselves; the reverse map is only read by add/remove, never by search.
  ms._idToShortId = ids;
  ms._fieldLength = lengths;
  for (const [term, fields] of p.index) (index.set as (k: string, v: unknown) => void).call(index, term, keep ? only(fields, keep) : fields);
  return loaded;
}

/** The kept docs of each field's map, in order, each map still reporting its full size. */
function only(fields: Map<number, Map<number, number>>, keep: Set<number>): Map<number, Map<number, number>> {
  const out = new Map<number, Map<number, number>>();
  for (const [field, docs] of fields) {
    const m = new Map<number, number>();
    for (const [doc, tf] of docs) if (keep.has(doc)) m.set(doc, tf);
    Object.defineProperty(m, 'size', { value: docs.size });
    out.set(field, m);
  }
  return out;
}

/** Docs ascending (the order of Object.keys over integer keys, which loadJS would see). */
function ascending(docs: number[], tfs: number[]): Map<number, number> {
  const m = new Map<number, number>();
  let sorted = true;
  for (let i = 1; i < docs.length && sorted; i++) sorted = docs[i - 1]! < docs[i]!;
  if (sorted) {
    for (let i = 0; i < docs.length; i++) m.set(docs[i]!, tfs[i]!);
    return m;
  }
  if (docs.some((d) => d >= 2 ** 29)) {
    const order = Array.from(docs.keys()).sort((a, b) => docs[a]! - docs[b]!);
    for (const i of order) m.set(docs[i]!, tfs[i]!);
    return m;
  }
  // Impact-ordered runs: sort (doc, tf) packed into one exact float (doc < 2^29, tf < 2^24), natively.
  const packed = new Float64Array(docs.length);
  for (let i = 0; i < docs.length; i++) packed[i] = docs[i]! * 0x1000000 + tfs[i]!;
  packed.sort();
  for (const x of packed) m.set(Math.floor(x / 0x1000000), x % 0x1000000);
  return m;
}

/** Relative slack of the cut-off below: far above floating-point error, far below any real score gap. */
const CUT_SLACK = 1e-9;

/**
 * The docs that can be among the `limit` best, by minisearch's own formula (BM25 with the
 * parameters it is given, term and field boosts, times the number of query terms matched) computed here in one
 * cheap pass: every doc whose score reaches the limit-th best, less a slack, is kept; minisearch
 * then scores those alone (direct()) while its document frequencies still count every doc, so the
 * kept docs' scores, their order and the top `limit` are exactly those of ranking every doc (a test
 * compares both). Undefined when there is nothing to cut.
 */
function candidates(p: Postings, idfFix: Map<string, number>, limit: number): Set<number> | undefined {
  if (p.lengths.size <= limit) return undefined;
  const { k, b, d } = BM25;
  const score = new Map<number, number>();
  const matched = new Map<number, number>();
  for (const [term, fields] of p.index) {
    const termBoost = idfFix.get(term) ?? 1;
    const seen = new Set<number>();
    FIELDS.forEach((field, f) => {
      const docs = fields.get(f);
      if (!docs) return;
      const avg = p.avgLen[f]!;
      const idf = Math.log(1 + (p.documentCount - docs.size + 0.5) / (docs.size + 0.5));
      const boost = termBoost * BOOST[field];
      for (const [doc, tf] of docs) {
        const len = p.lengths.get(doc)![f]!;
        const raw = idf * (d + (tf * (k + 1)) / (tf + k * (1 - b + (b * len) / avg)));
        score.set(doc, (score.get(doc) ?? 0) + boost * raw);
        seen.add(doc);
      }
    });
    for (const doc of seen) matched.set(doc, (matched.get(doc) ?? 0) + 1);
  }
  const final = [...score].map(([doc, s]) => s * matched.get(doc)!);
  const sorted = Float64Array.from(final).sort();
  const threshold = sorted[sorted.length - limit]! * (1 - CUT_SLACK);
  const keep = new Set<number>();
  let i = 0;
  for (const doc of score.keys()) if (final[i++]! >= threshold) keep.add(doc);
  return keep;
}

export function lexicalSearch(view: TierView, terms: string[], limit: number, opts: { viaLoadJS?: boolean } = {}): LexicalHit[] {
  const kept = keptTerms(view, terms);
  if (!kept.length || view.docCount === 0) return [];
  const owner = new Map<number, Segment>();
  const index: [string, Map<number, Map<number, number>>][] = [];
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
        owner.set(doc, seg);
      }
    }
    const fields = new Map<number, Map<number, number>>();
    byField.forEach((f, field) => f && fields.set(field, ascending(f.docs, f.tfs)));
    if (fields.size) index.push([term, fields]);
    if (read < stored) {
      const n = view.docCount;
      const idf = (df: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));
      idfFix.set(term, idf(Math.min(stored, n)) / idf(Math.max(1, read)));
    }
  }
  const docs = [...owner.keys()].sort((a, b) => a - b);
  const lengths = new Map<number, number[]>();
  for (const doc of docs) lengths.set(doc, owner.get(doc)!.lengths(doc));
  const postings: Postings = {
    documentCount: Math.max(view.docCount, owner.size),
    nextId: docs.length ? docs[docs.length - 1]! + 1 : 0,
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
