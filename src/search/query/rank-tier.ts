/**
 * The one ranking of a tier, whichever tier it is: the Markdown tiers (warm and cold, markdown-tier.ts)
 * and the transcript archive (src/archive/search.ts, above this layer, which hands in its own source)
 * each describe themselves as a TierSource, and rankTier runs the same steps for all: the lexical
 * engine (engine.ts, minisearch's BM25 over the query terms' postings), RM3 feedback where the source
 * takes it (feedback.ts), the lift of docs whose neighbours match where the source says which are
 * neighbours (neighbours.ts), the source's vector ranking, their fusion (fusion.ts), then the fused order
 * turned into the source's results, dead docs skipped, until it has enough.
 *
 * Invariant: two tiers rank differently only by what their sources state (terms, depth, filter,
 * feedback, vectors, tie order, how a doc becomes a result), so a change to ranking reaches every
 * tier, and no tier keeps a loop of its own to drift from the others.
 */
import { lexicalSearch, type Accept } from './engine.js';
import { addFeedback, FEEDBACK_DOCS, feedbackSearch, feedbackTerms, liveChunks } from './feedback.js';
import { fuse } from './fusion.js';
import { liftByNeighbours, type Adjacent } from './neighbours.js';
import type { Ranked } from './rank.js';
import type { TierView } from '../index/view.js';

/** A doc's place (1-based) and score in one ranking. */
export interface RankAt {
  rank: number;
  score: number;
}

export interface TierSource<H> {
  view: TierView;
  /** The query's terms as this tier ranks them. */
  terms: string[];
  /** Lexical candidates read. */
  depth: number;
  /** The query's filters, read inside the engine: a doc they refuse never takes a candidate's place. */
  accept?: Accept;
  /** RM3 pseudo-relevance feedback (feedback.ts) after the lexical search. */
  feedback?: boolean;
  /** Docs whose neighbours lend them part of their score (neighbours.ts): which doc ± 1 is of the same run. */
  adjacent?: Adjacent;
  /** The tier's vector ranking of live docs (cosines, best first), or null; the source handles its failures. */
  vectors?: () => Promise<Ranked[] | null>;
  /** Equal fused scores in doc order; otherwise in lexical order, docs found by vector alone after. */
  docTies?: boolean;
  /** Results wanted: the fused order is read until this many are listed. */
  wanted: number;
  /** Sees the docs that may become results (the first 2 × wanted of the fused order) before any does: one batch for what they all need. */
  prepare?(docs: number[]): void;
  /** A ranked live doc as a result; undefined when the source leaves it out or merged it into one listed. */
  result(doc: number, fused: number, lexical: RankAt | undefined, vector: RankAt | undefined): H | undefined;
}

/** A tier's results in fused order, and every ranked doc's places (a result added later, a lifted one, has them too). */
export interface RankedTier<H> {
  results: H[];
  lexical: Map<number, RankAt>;
  vector: Map<number, RankAt>;
}

/** The source's results in fused order, at most `wanted`; `k` is the results the query asks for (fusion's floor). */
export async function rankTier<H>(src: TierSource<H>, k: number): Promise<RankedTier<H>> {
  const { view, terms, accept } = src;
  const first = lexicalSearch(view, terms, src.depth, { accept });
  let lex: Ranked[] = first;
  if (src.feedback) {
    const live = liveChunks(view);
    const more = feedbackTerms(
      first.slice(0, FEEDBACK_DOCS).map((h) => ({ text: h.segment.record(h.doc).text, score: h.score })),
      terms,
      live,
      view.docCount,
    );
    if (more.length) lex = addFeedback(first, feedbackSearch(view, more, live, accept));
  }
  if (src.adjacent) lex = liftByNeighbours(lex, src.adjacent);
  const vec = (src.vectors && (await src.vectors())) ?? [];
  const lexRank = new Map(lex.map((h, i) => [h.doc, { rank: i + 1, score: h.score }]));
  const vecRank = new Map(vec.map((h, i) => [h.doc, { rank: i + 1, score: h.score }]));
  const fused = fuse(lex, vec, k, view.docCount).scores;
  const order = [...fused.entries()].sort(src.docTies ? (a, b) => b[1] - a[1] || a[0] - b[0] : (a, b) => b[1] - a[1]);
  src.prepare?.(order.slice(0, src.wanted * 2).map(([doc]) => doc));
  const out: H[] = [];
  for (const [doc, score] of order) {
    if (out.length >= src.wanted) break;
    if (view.isDead(doc)) continue;
    const r = src.result(doc, score, lexRank.get(doc), vecRank.get(doc));
    if (r !== undefined) out.push(r);
  }
  return { results: out, lexical: lexRank, vector: vecRank };
}
