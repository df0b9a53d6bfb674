/**
 * Query-side stop words (pure): the function words of a question ("how", "what", "the"; 什么, 怎么,
 * 哪里, 的) are not searched for. Memory entries rarely hold a question's function words, but a
 * distractor that holds several of them was ranked above the answer: BM25 gives each a little
 * weight, and minisearch multiplies a doc's score by the number of query terms it matched.
 *
 * Chinese has no spaces, so a CJK run is cut where a stop word stands (`号源怎么放` → `号源`, `放`):
 * besides the stop word itself, the pairs across its edges (`源怎`, `么放`) are junk no answer holds.
 * The index is untouched: only the query's terms change. A query made only of stop words keeps its
 * words (nothing else to search for). Text is folded (fold.ts: lower case, Simplified) before this.
 */
import { segmentsOf } from './cjk.js';

/** English function and question words; a word's stem (`~befor`) goes with the word. */
const EN = new Set(
  (
    'a an and are as at be been being but by can could did do does doing for from had has have how i if in ' +
    'into is it its me my of on or our so than that the their them then there these they this those to us was we were what ' +
    'when where which who whom whose why will with would you your about any each now currently before after during since until'
  ).split(' '),
);

/**
 * Chinese function words and question words, Simplified (the query is folded first), longest first
 * so a longer one is cut before the shorter ones inside it.
 */
const ZH = [
  '为什么',
  '是什么',
  '怎么样',
  '现在',
  '目前',
  '以前',
  '之前',
  '后来',
  '什么',
  '怎么',
  '怎样',
  '如何',
  '哪里',
  '哪儿',
  '哪个',
  '哪些',
  '哪',
  '谁',
  '我们',
  '咱们',
  '是否',
  '的',
  '了',
  '吗',
  '呢',
  '吧',
  '啊',
  '是',
  '在',
  '和',
  '与',
  '及',
  '或',
  '也',
  '都',
  '就',
  '把',
  '被',
  '这',
  '那',
];

const ZH_CUT = new RegExp(ZH.filter((w) => w.length > 1).join('|'), 'gu');
/** A stop word of one character is cut only where it is a word of its own: `就` goes, `就诊` stays. */
const ZH_ONE = new Set(ZH.filter((w) => w.length === 1));
const HAS_ONE = new RegExp(`[${[...ZH_ONE].join('')}]`, 'u');
const HAN_RUN = /\p{Script=Han}+/gu;

/** Folded query text with the Chinese stop words cut out (a space in their place). */
export function cutChineseStopWords(folded: string): string {
  const cut = folded.replace(ZH_CUT, ' ');
  if (!HAS_ONE.test(cut)) return cut;
  return cut.replace(HAN_RUN, (run) =>
    segmentsOf(run)
      .map((w) => (ZH_ONE.has(w) ? ' ' : w))
      .join(''),
  );
}

/** Whether a folded Latin token (or a stem of one) is an English stop word. */
export function isEnglishStopWord(token: string): boolean {
  return EN.has(token);
}
