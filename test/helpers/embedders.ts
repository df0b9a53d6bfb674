/**
 * Embedding models for tests, served through test/helpers/openai-server.ts: hashed bags of words, a
 * weak model whose vectors follow the words and know no synonyms (scripts/eval-search/hash-embedder.mjs
 * is the same idea). Vectors unrelated to the words are openai-server.ts's own `hashVector`.
 */
import { tokenize } from '../../src/search/text/tokenize.js';

/** Each token hashed (FNV-1a) into one of `dims` buckets, the counts normalised. */
export function bagOfWords(text: string, dims: number): number[] {
  const v = new Array<number>(dims).fill(0);
  for (const w of tokenize(text)) {
    let h = 2166136261;
    for (const c of w) h = Math.imul(h ^ c.codePointAt(0)!, 16777619) >>> 0;
    v[h % dims]! += 1;
  }
  const n = Math.hypot(...v) || 1;
  return v.map((x) => Math.fround(x / n));
}
