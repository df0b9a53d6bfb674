/**
 * A text's token count as the sum of its pieces' counts, so pieces counted ahead (pack-cache.ts)
 * spare the tokenizer. o200k_base splits text with a pattern before it merges bytes, and no split of
 * that pattern runs across a line break followed by a character other than white space or `/` (its
 * only alternatives that can hold a line break end at the last one of a run, or go on with `/`), so
 * the text cut at those places counts exactly as the sum of its pieces. test/pack-pieces.test.ts
 * checks the sum against the whole count on generated texts and on real packs.
 */

/** The text cut after each line break that a character other than white space or `/` follows. */
export function pieces(text: string): string[] {
  return text.split(/(?<=\n)(?=[^\s/])/);
}

/**
 * A counter that takes each piece's count from `known`, counting with `count` only the pieces it
 * lacks, and adding those to `known` when `learn` is set (what a cache is built with).
 */
export function pieceCounter(
  known: Map<string, number>,
  count: (text: string) => number,
  learn = false,
): (text: string) => number {
  return (text) => {
    let n = 0;
    for (const p of pieces(text)) {
      let c = known.get(p);
      if (c === undefined) {
        c = count(p);
        if (learn) known.set(p, c);
      }
      n += c;
    }
    return n;
  };
}
