/**
 * The first and last steps of a search, shared by runSearch (search.ts) and the resident server
 * (server/answer.ts) so both answer alike: the query's terms and the empty answer, adding each
 * searched tier's results and notices, and the final order, where a superseded entry sits right
 * below its successor (DESIGN §6).
 */
import type { SearchOutcome, SearchRequest, SearchResponse, SearchResult } from './outcome.js';
import { hasFilters, unknownFilterValues } from './filter.js';
import { hasHan, prepareFold, toSimplified } from '../text/fold.js';
import { snippet } from '../text/snippet.js';
import { isHan, loneCjk } from '../text/cjk.js';
import { queryTerms } from '../text/tokenize.js';
import { queryTime } from './query-time.js';
import { dayOffset, liftAskedDay } from './day-lift.js';
import type { OpenedTier } from '../index/view.js';
import { count } from '../../core/count.js';

/**
 * A non-empty query's terms, its (still empty) response and notices. No searchable word: no terms,
 * and the notice that says so; the response as it stands is then the whole answer.
 */
export function startSearch(query: string): { terms: string[]; response: SearchResponse; notices: string[] } {
  const terms = queryTerms(query.trim());
  const notices = terms.length
    ? []
    : ['the query has no searchable words (only punctuation or symbols); nothing to match'];
  return { terms, response: { query, tier: 'warm', indexBehind: false, results: [] }, notices };
}

/**
 * Results a tier lists for k: more than k, so that a superseded entry's successor ranked just below
 * the cut still takes its place above it (successorsFirst) before the final cut to k.
 */
export function shortlist(k: number): number {
  return k * 2;
}

/**
 * A superseded entry ranks right below its successor when both are listed (DESIGN §6). For a question
 * about the past (`raise`, query-time.ts) the old entry is the likelier answer: its successor is
 * raised to right above it instead of the old entry being pushed down below a successor that ranked
 * far lower (an answer at 2 fell to 9 behind its successor at 8).
 */
export function successorsFirst(results: SearchResult[], raise = false): SearchResult[] {
  const out = [...results];
  for (const r of results) {
    if (!r.supersededBy) continue;
    const at = out.indexOf(r);
    const succ = out.findIndex((x) => x.id === r.supersededBy);
    if (succ > at && raise) out.splice(at, 0, ...out.splice(succ, 1));
    else if (succ > at) {
      out.splice(at, 1);
      out.splice(succ, 0, r);
    }
  }
  return out;
}

/**
 * Adds one searched tier to the answer (runSearch and the resident server alike): the "index is
 * behind" notice, the tier's warnings, and its results — warm first, cold filling the list unless
 * --deep ranks both tiers together.
 */
export function mergeTier(
  req: Pick<SearchRequest, 'k' | 'deep'>,
  opened: OpenedTier,
  found: SearchResult[],
  response: SearchResponse,
  results: SearchResult[],
  notices: string[],
): void {
  if (opened.behind.length) {
    response.indexBehind = true;
    notices.push(
      `the ${opened.tier} index is behind by ${count(opened.behind.length, 'file')} (e.g. ${opened.behind[0]}); they were read for this query; run "mem index"`,
    );
  }
  notices.push(...opened.warnings);
  response.tier = opened.tier;
  if (opened.tier === 'warm' || !req.deep) results.push(...found.slice(0, shortlist(req.k) - results.length));
  else results.push(...found);
}

/**
 * The final order (deep: both tiers by score) with superseded entries below their successors, cut
 * to k after that reordering, so the top results do not depend on k; then their snippets, from the
 * whole text where the stored one was cut (`wholeText`). When nothing was found, a --kind or
 * --status that is none of the values memfold writes gets a notice, and so does a query word of one
 * CJK character (indexed only where it stands alone).
 */
export function finishSearch(
  req: Pick<SearchRequest, 'k' | 'deep' | 'filters'>,
  response: SearchResponse,
  results: SearchResult[],
  notices: string[],
  terms: string[],
  wholeText: (r: SearchResult) => string | null,
): SearchOutcome {
  const ordered = req.deep
    ? liftAskedDay(
        results.sort((a, b) => b.score - a.score),
        dayOffset(response.query),
      )
    : results;
  response.results = successorsFirst(ordered, queryTime(response.query).past).slice(0, req.k);
  // Snippets last, for the results shown only, with one fold set-up for all their texts.
  const texts = response.results.map((r) => wholeText(r) ?? r.text);
  prepareFold(texts);
  response.results.forEach((r, i) => (r.snippet = snippet(texts[i]!, terms)));
  if (!response.results.length) {
    notices.push(...unknownFilterValues(req.filters));
    // Not when filters may be what left nothing (the character may well have been found).
    const lone = hasFilters(req.filters) ? [] : loneCjk(response.query);
    if (lone.length)
      notices.push(
        `${lone.map((t) => `"${t}"`).join(', ')}: a single kana or Hangul character is found only where it stands alone (the index keeps pairs of characters, and single characters of Chinese script only); search a word of two or more characters`,
      );
  }
  return {
    response,
    notices: [...new Set(notices)],
    ...(response.results.length ? { marks: markWords(response.query) } : {}),
  };
}

/**
 * The query's words a terminal marks in the snippets (present.ts highlight): each word of two or more
 * characters, or a Chinese character (a word of its own, found inside words); a Traditional word also
 * in its Simplified form (fold.ts), as the index found it there. The reverse, a Simplified word in
 * Traditional text, is not marked: folding the text could move its characters.
 */
export function markWords(query: string): string[] {
  const asked = query.split(/[\s\p{P}]+/u);
  return [...new Set([...asked, ...asked.filter(hasHan).map(toSimplified)])]
    .filter((w) => w.length >= 2 || isHan(w))
    .slice(0, 20);
}
