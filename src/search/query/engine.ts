/**
 * Lexical ranking over any set of segments, with minisearch's BM25 as the engine. Only the postings
 * of the query's terms are read; they are handed to minisearch in its documented serialised form
 * (MiniSearch.loadJS, minisearch-state.ts) together with the collection-wide document count and
 * average field lengths, so a score is the score the whole index would give, whichever shards were
 * read. Only the docs that can make the top are loaded (bm25-cutoff.ts).
 *
 * Very common terms are bounded without AND-only matching: a term found in more than an eighth of
 * the chunks (and over MIN_COMMON of them) is dropped when the query has rarer terms, and the pairs
 * read for one term are capped at POSTING_CAP in impact order over all segments (each segment's
 * impact-ordered head, merged), so no query scores 100,000 chunks and a small segment of freshly
 * indexed files weighs what it would in a rebuilt index. A
 * capped term's BM25 weight is corrected (boostTerm) to the IDF of its true document frequency, and
 * a stem weighs STEM_WEIGHT (tokenize.ts).
 */
import { BM25, BOOST, idf } from './bm25.js';
import { candidates } from './bm25-cutoff.js';
import { impactOrder } from '../index/impact-order.js';
import { fieldBoosts, identity, loadPostings, type Postings, type Run } from './minisearch-state.js';
import { ReadDocs } from './read-docs.js';
import { IMPACT_SORT_MIN } from '../index/segment-format.js';
import type { Segment } from '../index/segment.js';
import type { TierView } from '../index/view.js';
import { isStem, STEM_MARK, stemWeights } from '../text/tokenize.js';

/** Posting pairs read per term over all segments (the best of the segments' impact-ordered heads). */
export const POSTING_CAP = 5_000;
const MIN_COMMON = 1_000;
/** A query word found in fewer chunks than this has its stem searched too. */
const STEM_WHEN = 200;

export interface LexicalHit {
  doc: number;
  score: number;
  terms: string[];
  segment: Segment;
}

/**
 * The terms worth reading. A derived stem is looked up only for a query word found in fewer than
 * STEM_WHEN chunks: a word that common fills the results with exact matches already, and the stem's
 * postings (its variants together) are the largest the query would read.
 */
export function keptTerms(view: TierView, terms: string[], pairsOf = livePairs(view)): string[] {
  const wordPairs = new Map(terms.filter((t) => !isStem(t)).map((t) => [t, pairsOf(t)]));
  const useful = (stem: string) =>
    [...wordPairs].some(([w, n]) => n < STEM_WHEN && w.startsWith(stem.slice(STEM_MARK.length)));
  const looked = terms.filter((t) => wordPairs.has(t) || useful(t));
  const pairs = looked.map((t) => wordPairs.get(t) ?? pairsOf(t));
  const common = Math.max(MIN_COMMON, view.docCount / 8);
  const rare = looked.filter((_, i) => pairs[i]! > 0 && pairs[i]! <= common);
  return rare.length ? rare : looked.filter((_, i) => pairs[i]! > 0);
}

/**
 * The span of doc ids [lo, hi) of a segment where dead docs lie, or undefined when none does (after
 * a rebuild, and in all but the segments of edited files): hot loops ask isDead only inside it.
 */
function deadSpan(view: TierView, seg: Segment): [number, number] | undefined {
  let lo = Infinity;
  let hi = -Infinity;
  for (const [first, count] of view.dead) {
    if (first >= seg.first + seg.count || first + count <= seg.first) continue;
    lo = Math.min(lo, first);
    hi = Math.max(hi, first + count);
  }
  return lo < hi ? [lo, hi] : undefined;
}

/**
 * A term's pairs in live chunks (a file that `mem index` re-chunked leaves its old chunks dead in
 * their segment until the next rebuild), as the thresholds below need it: a term under STEM_WHEN
 * pairs in all is under them however many are dead; a commoner one loses the dead pairs among the
 * first (common-term bound + 1) of each segment, which is all of them unless the term is that common
 * in that segment alone.
 */
function livePairs(view: TierView): (term: string) => number {
  const window = Math.floor(Math.max(MIN_COMMON, view.docCount / 8)) + 1;
  const withDead = view.segments.flatMap((seg) => {
    const span = deadSpan(view, seg);
    return span ? [{ seg, lo: span[0], hi: span[1] }] : [];
  });
  return (term) => {
    let live = view.segments.reduce((n, s) => n + s.pairs(term), 0);
    if (live < STEM_WHEN) return live;
    for (const { seg, lo, hi } of withDead) {
      const p = seg.posting(term, window);
      for (let j = 0; p && j < p.length; j += 2) if (p[j]! >= lo && p[j]! < hi && view.isDead(p[j]!)) live--;
    }
    return live;
  };
}

/**
 * A term's pairs split by field, in the order read (impact order), into typed arrays: counted, then
 * filled in one pass. Not sorted: the few docs minisearch ranks come out in doc order from the
 * serialised form's objects (integer keys iterate ascending), not the thousands a common term reads.
 */
function fieldRuns(p: Uint32Array): Map<number, Run> {
  const count: number[] = [];
  for (let i = 1; i < p.length; i += 2) count[p[i]! >>> 24] = (count[p[i]! >>> 24] ?? 0) + 1;
  // Indexed by field id (a sparse array: no Map lookup per pair); `n` fills each run.
  const byField = count.map((n) => ({ docs: new Uint32Array(n), tfs: new Uint32Array(n), n: 0 }));
  for (let i = 0; i < p.length; i += 2) {
    const run = byField[p[i + 1]! >>> 24]!;
    run.docs[run.n] = p[i]!;
    run.tfs[run.n++] = p[i + 1]! & 0xffffff;
  }
  const runs = new Map<number, Run>();
  byField.forEach(({ docs, tfs }, f) => runs.set(f, { docs, tfs }));
  return runs;
}

/** Whether a doc may be a hit (the query's filters), asked before the posting cap counts it. */
export type Accept = (doc: number, seg: Segment) => boolean;

/**
 * The live pairs of a term that a query reads: each segment's head in impact order (segment-builder.ts),
 * a share of POSTING_CAP in proportion to the pairs the segment holds, so a small segment of freshly
 * indexed files weighs what it would in a rebuilt index and the pairs read stay about POSTING_CAP
 * (reading every segment's full head and merging them cost 40,000 pairs and a sort at 10,000 files).
 * A run of at most IMPACT_SORT_MIN pairs is stored in doc order, so a share of it would be its first
 * docs, not its best: it is read whole (a new chunk that says a common word three times, in the small
 * segment of a one-file update, was missed where a rebuilt index ranked it first).
 * With `accept`, a segment's whole run is read, only the pairs of accepted docs count, and when they
 * hold more than POSTING_CAP pairs the best of them all are kept in impact order.
 */
function termHead(view: TierView, term: string, accept?: Accept): { pairs: Uint32Array; capped: boolean } {
  const heads: Uint32Array[] = [];
  // Body lengths of the accepted docs, should they need impact order across segments.
  const body = accept ? new Map<number, number>() : undefined;
  let n = 0;
  let capped = false;
  const counts = view.segments.map((seg) => seg.pairs(term));
  const total = counts.reduce((sum, c) => sum + c, 0);
  view.segments.forEach((seg, k) => {
    const stored = counts[k]!;
    const share = total > POSTING_CAP && stored > IMPACT_SORT_MIN ? Math.ceil((POSTING_CAP * stored) / total) : stored;
    const p = seg.posting(term, accept ? stored : share);
    if (!p) return;
    const live = new Uint32Array(Math.min(p.length, POSTING_CAP * 2));
    // The dead check only where a dead range lies (a call per pair was 8% of a served query).
    const [lo, hi] = deadSpan(view, seg) ?? [0, 0];
    let m = 0;
    let i = 0;
    for (; i < p.length && m < live.length; i += 2) {
      const doc = p[i]!;
      if ((doc >= lo && doc < hi && view.isDead(doc)) || (accept && !accept(doc, seg))) continue;
      live[m++] = doc;
      live[m++] = p[i + 1]!;
      if (body && !body.has(doc)) body.set(doc, seg.lengths(doc)[1]);
    }
    // Pairs left unread in this segment (its head was cut, or the live array filled).
    if (p.length / 2 < stored || i < p.length) capped = true;
    heads.push(live.subarray(0, m));
    n += m / 2;
  });
  if (heads.length === 1) return { pairs: heads[0]!, capped };
  const all = concat(heads, n);
  // Shares rounded up may pass the cap by a pair a segment: no sort for that.
  if (n <= POSTING_CAP || !body) return { pairs: all, capped };
  impactOrder(all, 0, n, (doc) => body.get(doc)!);
  return { pairs: all.subarray(0, POSTING_CAP * 2), capped: true };
}

function concat(parts: Uint32Array[], pairs: number): Uint32Array {
  const out = new Uint32Array(pairs * 2);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export function lexicalSearch(
  view: TierView,
  terms: string[],
  limit: number,
  opts: { rankAll?: boolean; accept?: Accept } = {},
): LexicalHit[] {
  // Per-term BM25 multipliers: a stem's weight (tokenize.ts), times a capped term's IDF fix.
  const termBoost = stemWeights(terms);
  const pairsOf = livePairs(view);
  const kept = keptTerms(view, terms, pairsOf);
  if (!kept.length || view.docCount === 0) return [];
  const read = new ReadDocs(view.segments);
  const index: [string, Map<number, Run>][] = [];
  for (const term of kept) {
    const stored = pairsOf(term);
    const { pairs: p, capped } = termHead(view, term, opts.accept);
    for (let i = 0; i < p.length; i += 2) read.add(p[i]!);
    const fields = fieldRuns(p);
    if (fields.size) index.push([term, fields]);
    // Only a capped term's IDF needs the fix: an uncapped one read every live pair, as a rebuilt
    // index holds them (`stored` may still count dead pairs, under STEM_WHEN: livePairs). Pairs
    // count a chunk once per field: both counts are held to the chunks there are, or a word in the
    // title and body of most chunks read more pairs than chunks and got a negative IDF (no results).
    if (capped && p.length / 2 < stored) {
      const n = view.docCount;
      const fix = idf(n, stored) / idf(n, Math.max(1, p.length / 2));
      termBoost.set(term, (termBoost.get(term) ?? 1) * fix);
    }
  }
  const postings: Postings = {
    documentCount: Math.max(view.docCount, read.docs.length),
    avgLen: view.avgLen.map((x) => Math.max(x, 1)),
    read,
    index,
  };
  // The reference path (tests): every doc ranked. Otherwise only the docs that can make the top,
  // each term's field boosts carrying the IDF of the docs left out (minisearch-state.ts).
  const keep = opts.rankAll ? undefined : candidates(postings, termBoost, limit);
  const ms = loadPostings(postings, keep);
  const idfFix = keep && fieldBoosts(postings, keep);
  const queries = idfFix
    ? kept.map((term) => {
        const [title, body, id] = idfFix.get(term) ?? [1, 1, 1];
        return {
          queries: [term],
          boost: { title: BOOST.title * title!, body: BOOST.body * body!, id: BOOST.id * id! },
        };
      })
    : kept;
  const results = ms.search(
    { combineWith: 'OR', queries },
    {
      boost: BOOST,
      bm25: BM25,
      tokenize: identity,
      processTerm: (t: string) => t,
      prefix: false,
      fuzzy: false,
      boostTerm: (term: string) => termBoost.get(term) ?? 1,
    },
  );
  return results.slice(0, limit).map((r) => ({
    doc: r.id as number,
    score: r.score,
    terms: r.terms,
    segment: read.segment(read.slot(r.id as number)),
  }));
}
