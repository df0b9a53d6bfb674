/**
 * Snippets (pure): the chunk line that holds most query terms, cut to about 240 characters. A line's
 * hits are the query terms among the line's tokens (tokenize.ts); the tokenizer's Intl.Segmenter
 * words (CJK words of three or more characters, ~12 ms to set up) can only be hits when the query
 * itself has such terms, so lines are scanned without them otherwise: the same count, cheaper.
 */
import { cjkTokens, foldText, scanTokens, stemAt } from './tokenize.js';

const WIDTH = 240;
/** Bookkeeping fields of an entry say nothing a reader needs in a snippet. */
const FIELD_LINE = /^[-*+]\s+(id|date|status|source|session_id|session_path|message_range|supersedes|scope|key|origin|confidence|class|core|weight|refs):/i;

const LONG_CJK = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー]{3,}$/u;

/** Distinct query terms among the tokens of `line` (tokenize(line) ∩ want, counted). */
export function lineHits(line: string, want: Set<string>, segmenterWords: boolean): number {
  const found = new Set<string>();
  const check = (t: string) => want.has(t) && found.add(t);
  scanTokens(foldText(line), {
    word: (text, start, end) => check(text.slice(start, end)),
    stem: (text, start) => check(stemAt(text, start)),
    cjk: (run) => {
      if (segmenterWords) {
        const tokens: string[] = [];
        cjkTokens(run, tokens);
        tokens.forEach(check);
        return;
      }
      // cjkTokens without its segmenter words: the lone character, or every bigram.
      const chars = Array.from(run);
      if (chars.length === 1) check(run);
      for (let i = 0; i + 1 < chars.length; i++) check(chars[i]! + chars[i + 1]!);
    },
  });
  return found.size;
}

export function snippet(text: string, terms: string[]): string {
  const want = new Set(terms);
  const segmenterWords = terms.some((t) => LONG_CJK.test(t));
  let best = '';
  let bestHits = -1;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || FIELD_LINE.test(line)) continue;
    // A heading is shown as the result's heading already: prefer a body line with as many hits.
    const hits = lineHits(line, want, segmenterWords) - (/^#{1,6}\s/.test(line) ? 0.5 : 0);
    if (hits > bestHits) {
      best = line;
      bestHits = hits;
    }
  }
  const plain = best.replace(/\s+/g, ' ');
  return plain.length > WIDTH ? plain.slice(0, WIDTH - 1) + '…' : plain;
}

/** Wraps the query's words found in `text` (case-insensitive) with `mark`, for terminal output. */
export function highlight(text: string, query: string, mark: (s: string) => string): string {
  const words = [...new Set(query.split(/[\s\p{P}]+/u).filter((w) => w.length >= 2))].slice(0, 20);
  if (!words.length) return text;
  const re = new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'giu');
  return text.replace(re, (m) => mark(m));
}
