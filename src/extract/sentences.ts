/**
 * Sentence-level text helpers for the offline extractor. Quoted material (fenced code, `>` quotes)
 * is removed first: words a person pasted in are not words they said. A hard-wrapped paragraph is
 * one run of sentences: "never force-push unless\nthe release manager approved it" is one rule, not
 * a rule and a fragment.
 */
import { stripMaterial } from './material.js';

export function stripQuoted(text: string): string {
  return (
    stripMaterial(text)
      .replace(/^[ \t]*(```|~~~)[^\n]*\n[\s\S]*?(?:^[ \t]*\1[^\n]*$|(?![\s\S]))/gm, ' ')
      .split('\n')
      // A quote's lines become a blank line: the paragraphs either side of it stay apart.
      .map((l) => (/^\s*>/.test(l) ? '' : l))
      .join('\n')
  );
}

/** A list item's marker: the item starts a block, and the marker is no part of what it says. */
const LIST_ITEM = /^[ \t]*(?:[-*+]|\d+[.)])[ \t]+/;
/** Blocks one line long (heading, quote, code fence, table row): the next line is never part of one. */
const ONE_LINE_BLOCK = /^\s*(?:#{1,6}(?:\s|$)|>|```|~~~|\|)/;
/** Han, kana and CJK punctuation: written without spaces, so two lines of it join without one. */
const CJK = '[\\p{sc=Han}\\p{sc=Hiragana}\\p{sc=Katakana}\\u3000-\\u303f\\uff00-\\uffef]';
const CJK_END = new RegExp(`${CJK}$`, 'u');
const CJK_START = new RegExp(`^${CJK}`, 'u');

/** Joins the lines of a paragraph (a soft line break is a space); blank lines and new blocks stay. */
function unwrap(text: string): string {
  const out: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const prev = out[out.length - 1]?.trimEnd();
    if (!prev || !line.trim() || LIST_ITEM.test(line) || ONE_LINE_BLOCK.test(line) || ONE_LINE_BLOCK.test(prev)) {
      out.push(line);
      continue;
    }
    const next = line.trimStart();
    out[out.length - 1] = prev + (CJK_END.test(prev) && CJK_START.test(next) ? '' : ' ') + next;
  }
  return out.join('\n');
}

/**
 * Text in quotes ("", “”, ‘’, 「」, 『』, and '' around words, not an apostrophe's "don't") within a
 * paragraph: someone else's words, or a name.
 */
const QUOTED =
  /"[^"\n]*"|“[^”\n]*”|‘[^’\n]*’(?![\p{L}\p{N}])|「[^」\n]*」|『[^』\n]*』|(?<![\p{L}\p{N}'])'(?=[^\s'])[^'\n]*[^\s'\\]'(?![\p{L}\p{N}])/gu;

/** The sentence without what it quotes: `he said "from now on we deploy on Fridays"` decides nothing. */
export function withoutQuotes(s: string): string {
  return s.replace(QUOTED, ' ');
}

/**
 * While sentences are split, a quotation is held out as `\uE000<n>` and a mark that says whether
 * it ends like a sentence: \uE002 like ".", \uE003 like "。", \uE001 neither.
 */
function quoteEnd(quote: string): string {
  const inside = quote.slice(0, -1);
  return /[.!?]$/.test(inside) ? '\uE002' : /[。！？]$/.test(inside) ? '\uE003' : '\uE001';
}

/**
 * Splits at sentence ends (". ", "!", "?", CJK 。！？) and at line breaks that end a paragraph or
 * start a block; "e.g.", "v1.2" or a lone "." (the path in "COPY . /app") stay whole, and so does a quotation, however many sentences it holds.
 */
export function sentences(text: string): string[] {
  const quotes: string[] = [];
  return unwrap(text)
    .replace(new RegExp(LIST_ITEM.source, 'gm'), '')
    .replace(QUOTED, (q) => `\uE000${quotes.push(q) - 1}${quoteEnd(q)}`)
    .split(/\n|(?<=[.!?\uE002])(?<!\b(?:e\.g|i\.e|etc|vs|cf|approx)\.|\s\.)\s+|(?<=[。！？\uE003])\s*/i)
    .map((s) => s.replace(/\uE000(\d+)[\uE001-\uE003]/g, (held, i: string) => quotes[Number(i)] ?? held).trim())
    .filter(Boolean);
}

export function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Cuts at a word (or CJK character) boundary near `max` characters. */
export function clip(s: string, max: number): string {
  const chars = Array.from(s);
  if (chars.length <= max) return s;
  const cut = withoutHalfMarker(chars.slice(0, max).join(''));
  const space = cut.lastIndexOf(' ');
  return (space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,，;；:：=-]+$/, '');
}

/** Never half a redaction marker: `Password=[REDACTED:passwor` reads as a password to lint --secrets. */
function withoutHalfMarker(cut: string): string {
  const open = cut.lastIndexOf('[');
  const tail = cut.slice(open);
  return open >= 0 && (MARKER_OPEN.startsWith(tail) || (tail.startsWith(MARKER_OPEN) && !tail.includes(']')))
    ? cut.slice(0, open)
    : cut;
}

/** A clause ends here: after a comma, semicolon, colon or dash, in either script. */
const CLAUSE_END = /[,，;；:：、—–]\s*$|\s[-–—]\s*$/u;
const WORD_CHAR = /[\p{L}\p{N}_]/u;
const HAN = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]/u;

/**
 * A title's cut (issue 27): whole phrases only. Past `max` characters the text is cut at the last
 * clause boundary in its second half, else at the last word boundary (between two CJK characters is
 * one), never inside a word, and "…" says that it goes on.
 */
export function clipPhrase(s: string, max: number): string {
  const chars = Array.from(s);
  if (chars.length <= max) return s;
  const room = max - 1;
  let clause = -1;
  let word = -1;
  for (let i = 1; i <= room; i++) {
    const before = chars.slice(0, i).join('');
    const next = chars[i] ?? '';
    const prev = chars[i - 1] ?? '';
    if (i >= room / 2 && CLAUSE_END.test(before)) clause = i;
    const boundary = !WORD_CHAR.test(prev) || !WORD_CHAR.test(next) || (HAN.test(prev) && HAN.test(next));
    if (boundary && !/[\p{M}]/u.test(next)) word = i;
  }
  const at = clause > 0 ? clause : word > room * 0.4 ? word : room;
  const cut = withoutHalfMarker(chars.slice(0, at).join('')).replace(/[\s,，;；:：、=—–-]+$/u, '');
  return cut ? `${cut}…` : '';
}

const MARKER_OPEN = '[REDACTED:';

/**
 * An entry's title from its text: the first sentence that says something, without its closing
 * punctuation (a text opening "... " took the "..." as its title and wrote `## Note: `).
 */
export function titleOf(text: string): string {
  return capitalise(clipPhrase(sentences(text).map(trimEnd).find(Boolean) ?? trimEnd(text), 80));
}

export function trimEnd(s: string): string {
  return s.replace(/[\s.。!！?？,，;；:：]+$/, '');
}

/** Whether `s` holds a letter or a digit of any script: punctuation, symbols, emoji and invisible characters alone say nothing. */
export function hasWords(s: string): boolean {
  return /[\p{L}\p{N}]/u.test(s);
}

export function normalise(s: string): string {
  return s
    .toLowerCase()
    .replace(/[\s\p{P}]+/gu, ' ')
    .trim();
}
