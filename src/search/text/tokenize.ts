/**
 * The tokenizer of index and query (DESIGN §6). Latin words are split on anything that is not a
 * letter or digit; runs of CJK (Han, Hiragana, Katakana, Hangul) give Intl.Segmenter words of three or
 * more characters plus every character bigram of the run (a lone character stays a unigram), never
 * whole clauses: a Chinese two-character word in the middle of a sentence is always found, which
 * minisearch's default tokenizer (split on spaces and punctuation) never does. A run's tokens, and
 * the memory index's Han unigrams (`hanUnigrams`), are cjk.ts's.
 *
 * Invariant (a contract with the query side and the on-disk index): the tokens are exactly those of
 * the reference definition, `[\p{L}\p{N}]+` words (at most 40 UTF-16 units), each followed by its
 * marked stem when its first STEM units are a-z, between maximal runs of
 * `[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー]`. The scanner below
 * classifies each code point with those same two character classes (cached per code point) instead
 * of running the regexes over the text, which is what made indexing slow; a unit test holds the two
 * equal on mixed text.
 */
import { CJK_CHAR, cjkTokens } from './cjk.js';
import { fold } from './fold.js';
import { cutChineseStopWords, isEnglishStopWord } from './stop-words.js';

/**
 * A word of at least STEM letters a-z also gives its stem, its first STEM letters marked with
 * STEM_MARK (`postgresql` → `~postg`): light stemming by truncation, so `postgres` finds `PostgreSQL`,
 * `caches` finds `cache`, `deploy` finds `deployment`. The mark keeps stems apart from words (no
 * word holds `~`): `state` matches the word `state`, `~state` matches `statement` too. A query's
 * stems weigh STEM_WEIGHT (stemWeights), so the exact word ranks first.
 */
export const STEM = 5;
export const STEM_MARK = '~';
export const STEM_WEIGHT = 0.375;
const WORD_CHAR = /^[\p{L}\p{N}]$/u;
const MAX_TOKEN = 40;
/** Text made only of ASCII: NFKC and Traditional → Simplified are the identity on it. */
const ASCII_ONLY = /^[\x00-\x7f]*$/;

const OTHER = 1;
const WORD = 2;
const CJK = 3;
/** Kind of each BMP code unit, 0 = not classified yet. */
const bmp = new Uint8Array(65536);
const astral = new Map<number, number>();
for (let c = 0; c < 128; c++)
  bmp[c] = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) ? WORD : OTHER;

function classify(ch: string): number {
  return CJK_CHAR.test(ch) ? CJK : WORD_CHAR.test(ch) ? WORD : OTHER;
}

function kindAt(cp: number): number {
  if (cp < 0x10000) {
    let k = bmp[cp]!;
    // A lone surrogate is a code point of category Cs: neither a letter nor CJK.
    if (k === 0) bmp[cp] = k = cp >= 0xd800 && cp <= 0xdfff ? OTHER : classify(String.fromCharCode(cp));
    return k;
  }
  let k = astral.get(cp);
  if (k === undefined) astral.set(cp, (k = classify(String.fromCodePoint(cp))));
  return k;
}

/**
 * Receives the tokens of scanTokens in order: Latin words in place (with their termHash), a word's
 * stem right after it (`stemAt` gives the token: the STEM letters from `start`, marked), CJK runs whole
 * (with where they start in the text).
 */
export interface TokenSink {
  word(text: string, start: number, end: number, hash: number): void;
  stem(text: string, start: number): void;
  cjk(run: string, start: number): void;
}

export function stemAt(text: string, start: number): string {
  return STEM_MARK + text.slice(start, start + STEM);
}

/** Finds the tokens of already folded text and hands them to `sink` without cutting Latin words out. */
export function scanTokens(text: string, sink: TokenSink): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    let c = text.charCodeAt(i);
    let w = 1;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) ((c = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000), (w = 2));
    }
    const k = c < 128 ? bmp[c]! : kindAt(c);
    if (k === OTHER) {
      i += w;
      continue;
    }
    const start = i;
    // FNV-1a over the word's UTF-16 units as it is scanned (segment-format.ts termHash).
    let h = Math.imul(0x811c9dc5 ^ text.charCodeAt(i), 0x01000193);
    if (w === 2) h = Math.imul(h ^ text.charCodeAt(i + 1), 0x01000193);
    i += w;
    // How many of the word's first STEM units are letters a-z (counting stops at the first other).
    let letters = k === WORD && c >= 97 && c <= 122 ? 1 : 0;
    while (i < n) {
      c = text.charCodeAt(i);
      w = 1;
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
        const d = text.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) ((c = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000), (w = 2));
      }
      if ((c < 128 ? bmp[c]! : kindAt(c)) !== k) break;
      h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
      if (w === 2) h = Math.imul(h ^ text.charCodeAt(i + 1), 0x01000193);
      i += w;
      if (letters && letters < STEM) letters = c >= 97 && c <= 122 ? letters + 1 : 0;
    }
    if (k === WORD) {
      if (i - start > MAX_TOKEN) continue;
      sink.word(text, start, i, h);
      if (letters === STEM) sink.stem(text, start);
    } else sink.cjk(text.slice(start, i), start);
  }
}

class StringSink implements TokenSink {
  readonly out: string[] = [];
  constructor(
    private readonly stems: boolean,
    private readonly hanUnigrams: boolean,
  ) {}
  word(text: string, start: number, end: number): void {
    this.out.push(text.slice(start, end));
  }
  stem(text: string, start: number): void {
    if (this.stems) this.out.push(stemAt(text, start));
  }
  cjk(run: string): void {
    cjkTokens(run, this.out, this.hanUnigrams);
  }
}

/**
 * Tokens of already folded text (see fold.ts), in order, with repeats (term frequency counts);
 * `stems: false` leaves stems out; `hanUnigrams`: the memory index's (cjkTokens).
 */
export function tokenizeFolded(text: string, stems = true, hanUnigrams = false): string[] {
  const sink = new StringSink(stems, hanUnigrams);
  scanTokens(text, sink);
  return sink.out;
}

/** fold() for index and query; plain ASCII (most text) takes the exact shortcut of lower-casing. */
export function foldText(text: string): string {
  return ASCII_ONLY.test(text) ? text.toLowerCase() : fold(text);
}

export function tokenize(text: string, hanUnigrams = false): string[] {
  return tokenizeFolded(foldText(text), true, hanUnigrams);
}

/** The BM25 weight below 1 of each stem among a query's terms. */
export function stemWeights(terms: string[]): Map<string, number> {
  return new Map(terms.filter(isStem).map((t) => [t, STEM_WEIGHT]));
}

export function isStem(term: string): boolean {
  return term.startsWith(STEM_MARK);
}

/**
 * Distinct query terms in first-seen order: at most `max` words (a 100 KB query stays bounded), then
 * the stems of those words, which do not count against `max`. Stop words are left out (stop-words.ts)
 * unless the query has nothing else, or `stopWords` is false.
 */
export function queryTerms(query: string, max = 64, stopWords = true): string[] {
  const text = query.slice(0, 20_000);
  const kept = stopWords ? termsOf(text, max, true) : [];
  return kept.length ? kept : termsOf(text, max, false);
}

function termsOf(query: string, max: number, stop: boolean): string[] {
  const words = new Set<string>();
  const stems = new Set<string>();
  const folded = foldText(query);
  let skipStem = false;
  // A word's stem comes right after it (scanTokens): a stop word's goes with it.
  for (const t of tokenizeFolded(stop ? cutChineseStopWords(folded) : folded)) {
    if (isStem(t)) {
      if (!skipStem) stems.add(t);
      continue;
    }
    skipStem = stop && isEnglishStopWord(t);
    if (skipStem) continue;
    if (words.size >= max) break;
    words.add(t);
  }
  return [...words, ...stems];
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
    } else if (
      (c >= 48 && c <= 57) ||
      (c >= 65 && c <= 90) ||
      (c >= 97 && c <= 122) ||
      c === 95 ||
      (c >= 0xc0 && c < 0x2e80)
    ) {
      if (!inWord) n++;
      inWord = true;
    } else inWord = false;
  }
  return n;
}
