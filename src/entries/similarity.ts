/**
 * Lexical similarity for "which earlier entry does this revise?" and suspected conflicts. Words for
 * Latin text, character bigrams for CJK, so 放弃 Redis 缓存 and 改回 Redis 缓存 overlap.
 */

const STOP = new Set(
  'a an and are as at be by for from in into is it of on or the this that to we with our use using instead back go'.split(
    ' ',
  ),
);
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

export function tokens(text: string): Set<string> {
  const out = new Set<string>();
  for (const run of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (CJK.test(run)) {
      const chars = Array.from(run).filter((c) => CJK.test(c));
      if (chars.length === 1) out.add(chars[0]!);
      for (let i = 0; i + 1 < chars.length; i++) out.add(chars[i]! + chars[i + 1]!);
      for (const w of run.split(CJK).filter((w) => w.length > 1)) out.add(w);
    } else if (run.length > 1 && !STOP.has(run)) out.add(run);
  }
  return out;
}

/**
 * Words that say how often, how strongly or who, not what about: two statements sharing only these
 * ("always", "must", "we") are not about one thing.
 */
const FUNCTION_WORDS = new Set(
  'all always any anymore are be been but can could did do does each every has have he her his i if its just me more must my never no not now only she should so than their them then there these they those us very will would you your'.split(
    ' ',
  ),
);

/** tokens() without function words: what a statement is about, to tell which earlier one it revises. */
export function contentTokens(text: string): Set<string> {
  const out = tokens(text);
  for (const w of FUNCTION_WORDS) out.delete(w);
  return out;
}

export function jaccard(a: Set<string>, b: Set<string>): number {
  if (!a.size || !b.size) return 0;
  let shared = 0;
  for (const t of a) if (b.has(t)) shared++;
  return shared / (a.size + b.size - shared);
}
