/**
 * A question about the day before or after a milestone ("what was planned the day before the
 * cutover", "切库前一天的安排", "賽季上線隔天的狀況") wants what was written on that day, usually a
 * wrap-up, which shares few words with the question: the milestone's own entry ranks first, and the
 * answer, dated one day off, ranked 10th or lower. So for such a question the best result's date is
 * the milestone's, and the best DAY_LIFTED results dated the asked day off it are lifted right below
 * it (score × 0.99 of the best, recency × the same factor, so score = fused × recency × status
 * stays true). Pure; other questions are left as they are.
 */
import type { SearchResult } from './outcome.js';
import { foldText } from '../text/tokenize.js';

/** Results of the asked day that are lifted. */
export const DAY_LIFTED = 2;
const LIFT = 0.99;

const BEFORE = /\b(the )?day before\b|\bthe previous day\b|\bthe eve of\b|前一天|前一日|前天晚上/;
const AFTER = /\b(the )?day after\b|\bthe next day\b|\bthe following day\b|隔天|第二天|次日|后一天/;

/** The day the query asks about relative to its milestone: -1 (before), 1 (after), or null. */
export function dayOffset(query: string): -1 | 1 | null {
  const text = foldText(query);
  if (BEFORE.test(text)) return -1;
  if (AFTER.test(text)) return 1;
  return null;
}

function shift(date: string, days: number): string | null {
  const t = Date.parse(date.slice(0, 10));
  return Number.isFinite(t) ? new Date(t + days * 86_400_000).toISOString().slice(0, 10) : null;
}

/** `results` best first; returns them re-sorted with the asked day's best lifted below the first. */
export function liftAskedDay(results: SearchResult[], offset: -1 | 1 | null): SearchResult[] {
  const top = results[0];
  const day = offset && top?.date ? shift(top.date, offset) : null;
  if (!top || !day) return results;
  for (const r of results.filter((x) => x.date?.slice(0, 10) === day).slice(0, DAY_LIFTED)) {
    const score = top.score * LIFT;
    if (score <= r.score) continue;
    r.scores.recency *= score / r.score;
    r.score = score;
  }
  return [...results].sort((a, b) => b.score - a.score);
}
