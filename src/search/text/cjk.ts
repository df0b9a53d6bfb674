/**
 * CJK runs as tokens (tokenize.ts finds the runs): every character bigram plus the Intl.Segmenter
 * words of three or more characters, or the lone character of a run of one. The index (`hanUnigrams`,
 * the archive's segments too) also keeps each Han character of a longer run, so a query of one Chinese
 * character or kanji (`锁`, a query's lone character) finds it inside words too (`数据库锁超时`); a
 * query's longer runs never ask for those unigrams (a pair or word says more). Those single
 * characters count toward no field's BM25 length (fieldLength).
 */

export const CJK_CHAR = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー]$/u;
const HAN_CHAR = /^\p{Script=Han}$/u;

let segmenter: Intl.Segmenter | undefined;
/** Segmenter words (over two characters) of CJK runs seen before: a run's words depend on the run alone. */
const segmented = new Map<string, string[]>();
const SEGMENTED_MAX = 50_000;

function segmenterWords(run: string): string[] {
  let words = segmented.get(run);
  if (words) return words;
  words = [];
  segmenter ??= new Intl.Segmenter('zh', { granularity: 'word' });
  for (const s of segmenter.segment(run)) {
    if (s.isWordLike && s.segment.length > 2 && Array.from(s.segment).length > 2) words.push(s.segment);
  }
  if (segmented.size >= SEGMENTED_MAX) segmented.clear();
  segmented.set(run, words);
  return words;
}

/** The segmenter's words of a CJK run, in order, all of them (a query's: not cached). */
export function segmentsOf(run: string): string[] {
  segmenter ??= new Intl.Segmenter('zh', { granularity: 'word' });
  return Array.from(segmenter.segment(run), (s) => s.segment);
}

/** Whether a character (one code point) is Han; cached per BMP code unit. */
const han = new Uint8Array(65536);
export function isHan(ch: string): boolean {
  const c = ch.charCodeAt(0);
  if (ch.length > 1) return HAN_CHAR.test(ch);
  if (!han[c]) han[c] = HAN_CHAR.test(ch) ? 2 : 1;
  return han[c] === 2;
}

/** Whether a token is one Han character (a unigram of the memory index, or a lone character). */
export function isHanUnigram(t: string): boolean {
  return (t.length === 1 || (t.length === 2 && t.codePointAt(0)! > 0xffff)) && isHan(t);
}

/**
 * A field's length for BM25: its tokens but single Chinese characters, which would make Chinese text
 * look twice as long as English text that says as much (term-table.ts TermIds counts the same).
 */
export function fieldLength(tokens: readonly string[]): number {
  let n = 0;
  for (const t of tokens) if (!isHanUnigram(t)) n++;
  return n;
}

/**
 * The kana and Hangul characters of `text` that stand alone (a run of one), as written: a query token
 * of one is found only where it stands alone too (cjkTokens keeps unigrams of Han characters only).
 */
export function loneCjk(text: string): string[] {
  const out: string[] = [];
  const chars = Array.from(text);
  chars.forEach((ch, i) => {
    if (CJK_CHAR.test(ch) && !isHan(ch) && !CJK_CHAR.test(chars[i - 1] ?? '') && !CJK_CHAR.test(chars[i + 1] ?? ''))
      out.push(ch);
  });
  return out;
}

/** A CJK run's tokens: the lone character, or every bigram, the segmenter's longer words and, with `hanUnigrams`, each Han character. */
export function cjkTokens(run: string, out: string[], hanUnigrams = false): void {
  const chars = Array.from(run);
  if (chars.length === 1) {
    out.push(run);
    return;
  }
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
  if (chars.length > 2) for (const w of segmenterWords(run)) out.push(w);
  if (hanUnigrams) for (const ch of chars) if (isHan(ch)) out.push(ch);
}
