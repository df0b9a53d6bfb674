/**
 * Snippets (pure): the chunk line that holds most query terms, cut to about 240 characters around its
 * first hit. A line's hits are the query terms among the line's tokens (tokenize.ts); the tokenizer's
 * Intl.Segmenter words (CJK words of three or more characters, ~12 ms to set up) can only be hits
 * when the query itself has such terms, so lines are scanned without them otherwise: the same count,
 * cheaper.
 */
import { cjkTokens, isHan } from './cjk.js';
import { foldText, scanTokens, stemAt } from './tokenize.js';

const WIDTH = 240;
/** Bookkeeping fields of an entry say nothing a reader needs in a snippet. */
const FIELD_LINE =
  /^[-*+]\s+(id|date|status|source|session_id|session_path|message_range|timestamp|supersedes|scope|key|origin|confirmed|confidence|class|core|weight|refs):/i;

const LONG_CJK = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー]{3,}$/u;

/** A line's query terms: how many distinct ones, and where the first starts in the folded line (-1: none). */
function findHits(folded: string, want: Set<string>, segmenterWords: boolean): { hits: number; first: number } {
  const found = new Set<string>();
  let first = -1;
  const check = (t: string, at: number) => {
    if (!want.has(t)) return;
    found.add(t);
    if (first < 0 || at < first) first = at;
  };
  scanTokens(folded, {
    word: (text, start, end) => check(text.slice(start, end), start),
    stem: (text, start) => check(stemAt(text, start), start),
    cjk: (run, start) => {
      if (segmenterWords) {
        const tokens: string[] = [];
        cjkTokens(run, tokens, true);
        for (const t of tokens) check(t, start + run.indexOf(t));
        return;
      }
      // The index's cjkTokens without its segmenter words: the lone character, or every bigram and each Han character.
      const chars = Array.from(run);
      if (chars.length === 1) check(run, start);
      else
        for (let i = 0, at = start; i < chars.length; at += chars[i]!.length, i++) {
          if (i + 1 < chars.length) check(chars[i]! + chars[i + 1]!, at);
          if (isHan(chars[i]!)) check(chars[i]!, at);
        }
    },
  });
  return { hits: found.size, first };
}

/** Distinct query terms among the tokens of `line` (tokenize(line) ∩ want, counted). */
export function lineHits(line: string, want: Set<string>, segmenterWords: boolean): number {
  return findHits(foldText(line), want, segmenterWords).hits;
}

export function snippet(text: string, terms: string[]): string {
  const want = new Set(terms);
  const segmenterWords = terms.some((t) => LONG_CJK.test(t));
  let best = '';
  let bestAt = 0;
  let bestHits = -1;
  for (const raw of text.split('\n')) {
    const line = raw.trim().replace(/\s+/g, ' ');
    if (!line || FIELD_LINE.test(line)) continue;
    const folded = foldText(line);
    const found = findHits(folded, want, segmenterWords);
    // A heading is shown as the result's heading already: prefer a body line with as many hits.
    const hits = found.hits - (/^#{1,6}\s/.test(line) ? 0.5 : 0);
    if (hits > bestHits) {
      best = line;
      bestHits = hits;
      // Folding (NFKC) may change the length a little: scale the offset back to the line.
      bestAt = found.first < 0 ? 0 : Math.round((found.first * line.length) / folded.length);
    }
  }
  return around(best, bestAt);
}

/** Text kept before the first hit when the snippet cannot start at the line's start. */
const LEAD = 60;

/**
 * At most WIDTH characters of `line`: its start when the first hit at `at` shows there with room
 * after it, else a window from a little before the hit (a paragraph written as one long line).
 */
function around(line: string, at: number): string {
  if (line.length <= WIDTH) return line;
  if (at + LEAD <= WIDTH) return line.slice(0, unsplit(line, WIDTH - 1, -1)) + '…';
  // The window runs to the line's end (one ellipsis), or stops short of it (two).
  if (at - LEAD + WIDTH - 1 >= line.length) return '…' + line.slice(unsplit(line, line.length - (WIDTH - 1), 1));
  const from = unsplit(line, at - LEAD, 1);
  return '…' + line.slice(from, unsplit(line, from + WIDTH - 2, -1)) + '…';
}

/** A cut at `i` moved by `step` when it would split a surrogate pair (an emoji, a rare CJK character). */
function unsplit(line: string, i: number, step: 1 | -1): number {
  const c = line.charCodeAt(i);
  return c >= 0xdc00 && c <= 0xdfff ? i + step : i;
}
