/**
 * Sentence-level text helpers for the offline extractor. Quoted material (fenced code, `>` quotes)
 * is removed first: words a person pasted in are not words they said. A hard-wrapped paragraph is
 * one run of sentences: "never force-push unless\nthe release manager approved it" is one rule, not
 * a rule and a fragment.
 */

export function stripQuoted(text: string): string {
  return text
    .replace(/^[ \t]*(```|~~~)[^\n]*\n[\s\S]*?(?:^[ \t]*\1[^\n]*$|(?![\s\S]))/gm, ' ')
    .split('\n')
    // A quote's lines become a blank line: the paragraphs either side of it stay apart.
    .map((l) => (/^\s*>/.test(l) ? '' : l))
    .join('\n');
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

/** Text in double quotes ("", “”, 「」, 『』) within a paragraph: someone else's words, or a name. */
const QUOTED = /"[^"\n]*"|“[^”\n]*”|「[^」\n]*」|『[^』\n]*』/g;

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
 * start a block; "e.g." or "v1.2" stay whole, and so does a quotation, however many sentences it holds.
 */
export function sentences(text: string): string[] {
  const quotes: string[] = [];
  return unwrap(text)
    .replace(new RegExp(LIST_ITEM.source, 'gm'), '')
    .replace(QUOTED, (q) => `\uE000${quotes.push(q) - 1}${quoteEnd(q)}`)
    .split(/\n|(?<=[.!?\uE002])(?<!\b(?:e\.g|i\.e|etc|vs|cf|approx)\.)\s+|(?<=[。！？\uE003])\s*/i)
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
  let cut = chars.slice(0, max).join('');
  // Never half a redaction marker: `Password=[REDACTED:passwor` reads as a password to lint --secrets.
  const open = cut.lastIndexOf('[');
  const tail = cut.slice(open);
  if (open >= 0 && (MARKER_OPEN.startsWith(tail) || (tail.startsWith(MARKER_OPEN) && !tail.includes(']')))) cut = cut.slice(0, open);
  const space = cut.lastIndexOf(' ');
  return (space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,，;；:：=-]+$/, '');
}

const MARKER_OPEN = '[REDACTED:';

/**
 * An entry's title from its text: the first sentence that says something, without its closing
 * punctuation (a text opening "... " took the "..." as its title and wrote `## Note: `).
 */
export function titleOf(text: string): string {
  return capitalise(clip(sentences(text).map(trimEnd).find(Boolean) ?? trimEnd(text), 80));
}

export function trimEnd(s: string): string {
  return s.replace(/[\s.。!！?？,，;；:：]+$/, '');
}

/** Whether `s` holds a letter or a digit of any script: punctuation, symbols, emoji and invisible characters alone say nothing. */
export function hasWords(s: string): boolean {
  return /[\p{L}\p{N}]/u.test(s);
}

export function normalise(s: string): string {
  return s.toLowerCase().replace(/[\s\p{P}]+/gu, ' ').trim();
}
