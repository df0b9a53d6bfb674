/**
 * The tokenizer of index and query (DESIGN §6). Latin words are split on anything that is not a
 * letter or digit; runs of CJK (Han, Hiragana, Katakana, Hangul) give Intl.Segmenter words of two or
 * more characters plus every character bigram of the run (a lone character stays a unigram), never
 * whole clauses: a Chinese two-character word in the middle of a sentence is always found, which
 * minisearch's default tokenizer (split on spaces and punctuation) never does.
 */
import { fold } from './fold.js';

const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー]+/gu;
const WORD = /[\p{L}\p{N}]+/gu;
const MAX_TOKEN = 40;

let segmenter: Intl.Segmenter | undefined;

function cjkTokens(run: string, out: string[]): void {
  const chars = Array.from(run);
  if (chars.length === 1) {
    out.push(run);
    return;
  }
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
  if (chars.length <= 2) return;
  segmenter ??= new Intl.Segmenter('zh', { granularity: 'word' });
  for (const s of segmenter.segment(run)) {
    const n = Array.from(s.segment).length;
    if (s.isWordLike && n > 2) out.push(s.segment);
  }
}

/** Tokens of already folded text (see fold.ts), in order, with repeats (term frequency counts). */
export function tokenizeFolded(text: string): string[] {
  const out: string[] = [];
  let last = 0;
  const latin = (s: string) => {
    for (const m of s.matchAll(WORD)) if (m[0].length <= MAX_TOKEN) out.push(m[0]);
  };
  for (const m of text.matchAll(CJK_RUN)) {
    latin(text.slice(last, m.index));
    cjkTokens(m[0], out);
    last = m.index + m[0].length;
  }
  latin(text.slice(last));
  return out;
}

export function tokenize(text: string): string[] {
  return tokenizeFolded(fold(text));
}

/** Distinct query terms, at most `max`, in first-seen order (a 100 KB query stays bounded). */
export function queryTerms(query: string, max = 64): string[] {
  const seen = new Set<string>();
  for (const t of tokenize(query.slice(0, 20_000))) {
    seen.add(t);
    if (seen.size >= max) break;
  }
  return [...seen];
}

/** Approximate token count used for window sizes: Latin words plus CJK characters (no regex: hot). */
export function countTokens(text: string): number {
  let n = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x2e80 && !(c >= 0xd800 && c <= 0xdfff) && c < 0xff00) {
      n++;
      inWord = false;
    } else if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || (c >= 0xc0 && c < 0x2e80)) {
      if (!inWord) n++;
      inWord = true;
    } else inWord = false;
  }
  return n;
}
