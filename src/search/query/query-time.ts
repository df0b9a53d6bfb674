/**
 * What a query says about time (pure), for the boosts of rank.ts. A question about the past ("what
 * was the deploy rule before the migration", "以前召回用什么索引", "一月份号源几点放") wants the old
 * entry that a newer one replaced: demoting superseded entries and favouring recent ones pushed
 * exactly those answers out of the top 5. So such a query gets neither boost (a superseded entry
 * still sits right below its successor when both are listed: assemble.ts successorsFirst). A month
 * it names ("in January", "3月", "年初") favours entries dated in that month.
 *
 * Read from the query as typed, English case-insensitively, Chinese after folding (Traditional
 * written as Simplified): the cues are the few words a question uses for "back then".
 */
import { foldText } from '../text/tokenize.js';

const EN_MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const EN_PAST =
  /\b(before|previously|used to|originally|earlier|at first|back then|old|older|was|were|did|had|until)\b/;
const ZH_PAST = /以前|之前|原来|原先|当时|当初|早先|最初|起初|一开始|年初|旧的|老的|过去|那时|迁移前|上线前|前的/;
const ZH_MONTHS = ['一', '二', '三', '四', '五', '六', '七', '八', '九', '十', '十一', '十二'];

export interface QueryTime {
  /** The query asks about how things were, not how they are. */
  past: boolean;
  /** Months (1-12) the query names. */
  months: number[];
}

export function queryTime(query: string): QueryTime {
  const text = foldText(query);
  const months = new Set<number>();
  EN_MONTHS.forEach((m, i) => {
    // "may" is a month only beside a day or "in": "in May", "May 3".
    const re = m === 'may' ? /\b(in|early|late|mid|since|until|before|after) may\b|\bmay \d/ : new RegExp(`\\b${m}\\b`);
    if (re.test(text)) months.add(i + 1);
  });
  for (const m of text.matchAll(/(?<![\d十])(\d{1,2}|十[一二]?|[一二三四五六七八九])月/gu)) {
    const n = /^\d+$/.test(m[1]!) ? Number(m[1]) : ZH_MONTHS.indexOf(m[1]!) + 1;
    if (n >= 1 && n <= 12) months.add(n);
  }
  if (/年初/.test(text)) [1, 2].forEach((n) => months.add(n));
  return { past: months.size > 0 || EN_PAST.test(text) || ZH_PAST.test(text), months: [...months] };
}

/** The month boost: ×MONTH_BOOST for a chunk dated in a month the query names. */
export const MONTH_BOOST = 1.3;

export function monthBoost(date: string | null, when: QueryTime): number {
  if (!date || !when.months.length) return 1;
  const m = Number(date.slice(5, 7));
  return when.months.includes(m) ? MONTH_BOOST : 1;
}
