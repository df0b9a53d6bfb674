/**
 * Entry ids (DESIGN §5): PREFIX-YYYYMMDD-slug. The id is the idempotency key, so the slug must be a
 * pure function of the title: lower-cased, CJK kept, everything else folded to "-", <= 60 chars.
 */
import { ID_PREFIX, type Kind } from './model.js';

const SLUG_CHARS = String.raw`a-z0-9\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}`;
const KEEP = new RegExp(`[${SLUG_CHARS}]`, 'u');
export const SLUG_MAX = 60;

export function slugify(title: string): string {
  let out = slugWords(title);
  const chars = Array.from(out);
  if (chars.length > SLUG_MAX) out = cutSlug(chars);
  return out || 'entry';
}

/** The text as a slug spells it, uncut: lower case, CJK kept, every other run folded to one "-". */
export function slugWords(text: string): string {
  let out = '';
  for (const ch of text.normalize('NFKC').toLowerCase()) {
    if (KEEP.test(ch)) out += ch;
    else if (!out.endsWith('-')) out += '-';
  }
  return out.replace(/^-+|-+$/g, '');
}

/**
 * A slug past SLUG_MAX cut at its last "-" (a word boundary) when that keeps most of it; a CJK run has
 * no "-", and between two of its characters is a boundary too. Never in the middle of a word.
 */
function cutSlug(chars: string[]): string {
  const head = chars.slice(0, SLUG_MAX + 1);
  const fits = (i: number) => head[i] === '-' || (HAN.test(head[i - 1] ?? '') && HAN.test(head[i] ?? ''));
  let at = SLUG_MAX;
  while (at > SLUG_MAX / 2 && !fits(at)) at--;
  return head
    .slice(0, at > SLUG_MAX / 2 ? at : SLUG_MAX)
    .join('')
    .replace(/-+$/, '');
}

const HAN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

export function makeId(kind: Kind, day: string, title: string): string {
  return `${ID_PREFIX[kind]}-${day.replaceAll('-', '')}-${slugify(title)}`;
}

/** Every id prefix as a regex alternation (`DECISION|RULE|…`): the one list every id matcher builds on. */
export const ID_PREFIXES = Object.values(ID_PREFIX).join('|');

/** PREFIX, YYYYMMDD, then a slug as slugify makes it (a `-N` version suffix is part of the slug). */
export const ID_PATTERN = new RegExp(`^(${ID_PREFIXES})-(\\d{8})-([${SLUG_CHARS}]+(?:-[${SLUG_CHARS}]+)*)$`, 'u');

/** An id as a Markdown link's text, `[DECISION-20261121-slug](memory/…)`: how MEMORY.md items cite their entries. */
const LINKED_ID = new RegExp(String.raw`\[((?:${ID_PREFIXES})-\d{8}-[^\]\s]+)\]\(`, 'gu');

/** The ids `text` cites as link texts, in order. */
export function linkedIds(text: string): string[] {
  return [...text.matchAll(LINKED_ID)].map((m) => m[1]!);
}

/** The same id or one of its collision versions (`id-2`, `id-3`, ...). */
export function isVersionOf(candidate: string, id: string): boolean {
  return candidate === id || (candidate.startsWith(id + '-') && /^\d+$/.test(candidate.slice(id.length + 1)));
}

/** First id not taken: id, id-2, id-3, ... */
export function nextFreeId(id: string, taken: (id: string) => boolean): string {
  if (!taken(id)) return id;
  for (let n = 2; ; n++) if (!taken(`${id}-${n}`)) return `${id}-${n}`;
}
