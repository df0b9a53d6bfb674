/**
 * Lexical ranking over any set of segments, with minisearch's BM25 as the engine. Only the postings
 * of the query's terms are read; they are handed to minisearch in its documented serialised form
 * (version pinned in package.json) together with the collection-wide document count and average
 * field lengths, so a score is the score the whole index would give, whichever shards were read.
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

export function lexicalSearch(view: TierView, terms: string[], limit: number): LexicalHit[] {
  const kept = keptTerms(view, terms);
  if (!kept.length || view.docCount === 0) return [];
  const owner = new Map<number, Segment>();
  const index: [string, Record<string, Record<string, number>>][] = [];
  const perSegment = Math.ceil(POSTING_CAP / Math.max(1, view.segments.length));
  const idfFix = new Map<string, number>();
  for (const term of kept) {
    const fields: Record<string, Record<string, number>> = {};
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
        const field = p[i + 1]! >>> 24;
        (fields[field] ??= {})[doc] = p[i + 1]! & 0xffffff;
        owner.set(doc, seg);
      }
    }
    if (Object.keys(fields).length) index.push([term, fields]);
    if (read < stored) {
      const n = view.docCount;
      const idf = (df: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));
      idfFix.set(term, idf(Math.min(stored, n)) / idf(Math.max(1, read)));
    }
  }
  const documentIds: Record<number, number> = {};
  const fieldLength: Record<number, number[]> = {};
  let nextId = 0;
  for (const [doc, seg] of owner) {
    documentIds[doc] = doc;
    fieldLength[doc] = seg.lengths(doc);
    if (doc >= nextId) nextId = doc + 1;
  }
  const identity = (s: string) => [s];
  const ms = (MiniSearch as unknown as { loadJS(js: unknown, o: unknown): MiniSearch }).loadJS(
    {
      documentCount: Math.max(view.docCount, owner.size),
      nextId,
      documentIds,
      fieldIds: Object.fromEntries(FIELDS.map((f, i) => [f, i])),
      fieldLength,
      averageFieldLength: view.avgLen.map((x) => Math.max(x, 1)),
      storedFields: {},
      dirtCount: 0,
      index,
      serializationVersion: 2,
    },
    { fields: [...FIELDS], tokenize: identity, processTerm: (t: string) => t },
  );
  const results = ms.search({ combineWith: 'OR', queries: kept }, {
    boost: BOOST, tokenize: identity, processTerm: (t: string) => t, prefix: false, fuzzy: false,
    boostTerm: (term: string) => idfFix.get(term) ?? 1,
  });
  return results.slice(0, limit).map((r) => ({ doc: r.id as number, score: r.score, terms: r.terms, segment: owner.get(r.id as number)! }));
}
