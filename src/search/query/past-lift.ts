/**
 * A question about the past (query-time.ts) lifts the entries that its best hits replaced (pure).
 * "Where did logs go before SLS" finds the decision that moved logs to SLS, whose words it shares;
 * the answer is the entry that decision `supersedes`, which shares few words with the question
 * ("日志写本地文件") and ranked 20th. So for such a query, each of the first k results that names
 * entries in `supersedes` brings them right below itself (score × LIFT), from the results or, when
 * they were not among them, from the index (the entry's own chunk, if the query's filters keep it).
 * A hit's predecessors are a fact of the memory, not of the query's words: this cannot demote any
 * hit, only add or raise the one an answer about "before" needs.
 */
import type { SearchResult } from './outcome.js';

/** A lifted entry's score relative to the entry that superseded it: just below it. */
export const LIFT = 0.99;

/** The ids a `supersedes` field names (one, or several separated by commas or spaces). */
export function supersededIds(field: string | null): string[] {
  return field ? field.split(/[\s,]+/).filter(Boolean) : [];
}

/**
 * Raises (or adds) the predecessors of the first `k` results; `supersedesOf` gives a result's
 * `supersedes` field, `find` an entry's result from the index (null when absent or filtered out).
 * Returns the results re-sorted by score.
 */
export function liftPredecessors(
  results: SearchResult[],
  k: number,
  supersedesOf: (r: SearchResult) => string | null,
  find: (id: string) => SearchResult | null,
): SearchResult[] {
  const out = [...results];
  for (const r of results.slice(0, k)) {
    for (const id of supersededIds(supersedesOf(r))) {
      let old = out.find((x) => x.id === id);
      if (!old) {
        const found = find(id);
        if (!found) continue;
        out.push((old = found));
      }
      old.score = Math.max(old.score, r.score * LIFT);
    }
  }
  return out.sort((a, b) => b.score - a.score);
}
