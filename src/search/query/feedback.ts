/**
 * Pseudo-relevance feedback (RM3-style): the words the query's best hits share, searched for again
 * with a low weight. A question that needs two pieces of memory ("who owns the place our logs go
 * now") names only the first ("logs go to Loki"); the second ("Dana owns Prometheus, Mimir, Loki and
 * Grafana") shares the first's rare words, not the question's. So the first FEEDBACK_DOCS lexical hits
 * give their words, weighed by how much of each hit they make up, by the hit's score and by their
 * rarity in the tier; the FEEDBACK_TERMS best that the query does not hold are searched on their own,
 * and each chunk's score gains FEEDBACK_WEIGHT × (its feedback score relative to the best one) × the
 * best lexical score, short of the best lexical hit itself, which keeps first place and its score.
 * An entry's bookkeeping lines and field labels (`- why:`) give no words. Pure apart from the
 * `pairs` callback (the tier's dictionaries).
 */
import type { Ranked } from './rank.js';
import type { TierView } from '../index/view.js';
import type { Accept } from './engine.js';
import { BOOST, fieldScore, idf } from './bm25.js';
import { FIELDS } from '../text/types.js';
import { isStem, tokenize } from '../text/tokenize.js';
import { isEnglishStopWord } from '../text/stop-words.js';
import { hasHan, prepareFold } from '../text/fold.js';

export const FEEDBACK_DOCS = 3;
export const FEEDBACK_TERMS = 4;
/** Rarity counts thrice: the words that lead to the second piece are names (`Loki`, `MessageBird`). */
const IDF_POWER = 3;
export const FEEDBACK_WEIGHT = 0.5;
/** A query of one or two words (a name, `latency budget`) says what it wants: no feedback. */
export const FEEDBACK_MIN_WORDS = 3;
/** Candidate words whose chunk counts are read (dev recall the same from 40 up, 0.5 lower at 24). */
export const FEEDBACK_LOOKUPS = 40;

const BOOKKEEPING =
  /^\s*[-*+]\s+(id|date|status|source|session_id|session_path|message_range|timestamp|supersedes|scope|key|origin|confirmed|confidence|class|core|weight|refs):/i;
const LABEL = /^\s*(?:[-*+]\s+[\w-]+:|#+\s+\w+:)/;
/** A MEMORY.md item's link to its entry (`([DECISION-…](memory/….md#…))`): ids and paths, no words. */
const LINK = /\(?\[[^\]]*\]\([^)]*\)\)?/g;

const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;

/**
 * The words of a hit's text that can carry meaning: no bookkeeping lines, no field labels, no word of
 * one or two letters or digits; CJK only for a query that holds some (else Chinese text would load
 * the folding tables for words the query has no use for).
 */
function words(text: string, cjk: boolean): string[] {
  const body = text
    .split('\n')
    .filter((l) => !BOOKKEEPING.test(l))
    .map((l) => l.replace(LABEL, ' ').replace(LINK, ' '))
    .join('\n');
  return tokenize(cjk ? body : body.replace(CJK_RUN, ' ')).filter(
    (t) => !isStem(t) && !isEnglishStopWord(t) && !/^[a-z0-9]{1,2}$/.test(t),
  );
}

/**
 * The expansion terms of a query: `hits` are its best lexical hits with their texts, `query` its
 * terms, `pairs(t)` how many chunks of the tier hold t, `docCount` the tier's chunks.
 */
export function feedbackTerms(
  hits: readonly { text: string; score: number }[],
  query: readonly string[],
  pairs: (term: string) => number,
  docCount: number,
): [string, number][] {
  if (query.filter((t) => !isStem(t)).length < FEEDBACK_MIN_WORDS) return [];
  const asked = new Set(query);
  const cjk = query.some(hasHan);
  // One small fold converter for these texts (a text it does not cover would build the full one, ~40 ms).
  if (cjk) prepareFold(hits.map((h) => h.text));
  const total = hits.reduce((s, h) => s + h.score, 0);
  const weight = new Map<string, number>();
  for (const h of hits) {
    const ws = words(h.text, cjk);
    for (const w of ws) if (!asked.has(w)) weight.set(w, (weight.get(w) ?? 0) + h.score / total / ws.length);
  }
  // Best share first, and only the FEEDBACK_LOOKUPS best: a word's chunk count is a dictionary entry
  // read from its shard (~0.1 ms cold), and three hits hold 100-250 words. Once even the rarest possible
  // word (in 2 chunks) of a share cannot pass the FEEDBACK_TERMS-th best so far, no later one can.
  const ranked = [...weight].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const most = Math.pow(Math.log(1 + docCount / 2), IDF_POWER);
  const best: [string, number][] = [];
  for (const [w, p] of ranked.slice(0, FEEDBACK_LOOKUPS)) {
    if (best.length === FEEDBACK_TERMS && p * most < best[FEEDBACK_TERMS - 1]![1]) break;
    const df = pairs(w);
    if (df < 2) continue;
    best.push([w, p * Math.pow(Math.log(1 + docCount / df), IDF_POWER)]);
    best.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    if (best.length > FEEDBACK_TERMS) best.pop();
  }
  return best;
}

/** Pairs read per feedback word (its words are rare: IDF cubed chose them). */
const WORD_CAP = 1_000;

/**
 * The feedback search, straight from the postings: each word's BM25 (memfold's one BM25, bm25.ts,
 * with its field boosts) times the word's weight relative to the first word's, summed per chunk.
 * One search of all four words would weigh them alike and multiply a chunk's score by how many it
 * holds (a chunk with three common feedback words beat the one with the rare name), and four
 * searches through minisearch cost 5-7 ms of a cold search.
 */
export function feedbackSearch(
  view: TierView,
  words: [string, number][],
  pairs: (term: string) => number,
  accept?: Accept,
): Ranked[] {
  const top = words[0]?.[1] ?? 0;
  const scores = new Map<number, number>();
  for (const [w, weight] of words) {
    const termIdf = idf(view.docCount, Math.max(1, pairs(w)));
    for (const seg of view.segments) {
      const p = seg.posting(w, WORD_CAP);
      for (let i = 0; p && i < p.length; i += 2) {
        const doc = p[i]!;
        if (view.isDead(doc) || (accept && !accept(doc, seg))) continue;
        const f = p[i + 1]! >>> 24;
        const tf = p[i + 1]! & 0xffffff;
        const bm25 = BOOST[FIELDS[f]!] * fieldScore(tf, seg.lengths(doc)[f]!, Math.max(1, view.avgLen[f]!), termIdf);
        scores.set(doc, (scores.get(doc) ?? 0) + (bm25 * weight) / top);
      }
    }
  }
  return [...scores].map(([doc, score]) => ({ doc, score })).sort((a, b) => b.score - a.score || a.doc - b.doc);
}

/** How close feedback may bring a chunk to the best lexical hit: just below it. */
const BELOW = 0.999;

/** Lexical hits with the feedback search's scores added (see the header), best first. */
export function addFeedback(lex: readonly Ranked[], more: readonly Ranked[]): Ranked[] {
  if (!lex.length || !more.length) return [...lex];
  const scale = (FEEDBACK_WEIGHT * lex[0]!.score) / more[0]!.score;
  const scores = new Map(lex.map((h) => [h.doc, h.score]));
  for (const h of more) scores.set(h.doc, (scores.get(h.doc) ?? 0) + h.score * scale);
  // The best lexical hit, which the feedback words came from, stays first with its own score: the
  // feedback may reorder what follows it, never displace it (a keyword query's answer lost first
  // place to a chunk that held more of the feedback words), and a tier's scores stay on the scale
  // of its lexical ones, which --deep compares with the other tier's.
  const first = lex[0]!.doc;
  const top = scores.get(first)!;
  const back = lex[0]!.score / top;
  return [...scores]
    .map(([doc, score]) => ({ doc, score: doc === first ? lex[0]!.score : Math.min(score, top * BELOW) * back }))
    .sort((a, b) => b.score - a.score || a.doc - b.doc);
}

/**
 * How many live chunks hold a term (a pair per field: an estimate, as IDF needs it). A segment with
 * dead docs (files `mem index` re-chunked) has them counted out, so an updated index picks the
 * words a rebuilt one would; a rebuilt index has none and reads no posting here.
 */
export function liveChunks(view: TierView): (term: string) => number {
  const withDead = view.segments.filter((seg) =>
    view.dead.some(([first, count]) => first < seg.first + seg.count && first + count > seg.first),
  );
  const known = new Map<string, number>();
  return (term) => {
    const seen = known.get(term);
    if (seen !== undefined) return seen;
    let n = view.segments.reduce((sum, seg) => sum + seg.pairs(term), 0);
    for (const seg of withDead) {
      const p = seg.posting(term, seg.pairs(term));
      for (let j = 0; p && j < p.length; j += 2) if (view.isDead(p[j]!)) n--;
    }
    known.set(term, n);
    return n;
  };
}
