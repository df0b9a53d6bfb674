/**
 * Traditional → Simplified Chinese, character by character (opencc-js, its 'tw' → 'cn' tables), so
 * one lexicon of hedges serves 繁體 and 简体 alike: "還沒定", "先這樣試試" and "聽說" are matched
 * as "还没定", "先这样试试" and "听说". Without it each phrase had to be written twice, and a phrase
 * written in one script only missed the other (the held-out decoys that landed were Chinese).
 *
 * The search layer folds with the Taiwan phrase tables (search/fold.ts), a layer above this one;
 * matching a hedge needs characters only, whose converter builds in ~13 ms, once, on first use, and
 * only for text that holds Han characters.
 */
import { createRequire } from 'node:module';

type Convert = (text: string) => string;

let convert: Convert | undefined;

const HAN = /\p{Script=Han}/u;

function converter(): Convert {
  if (!convert) {
    const lib = createRequire(import.meta.url)('opencc-js/t2cn') as {
      Converter(o: { from: string; to: string }): Convert;
    };
    convert = lib.Converter({ from: 'tw', to: 'cn' });
  }
  return convert;
}

/** The text with Traditional characters written in Simplified, full-width letters half-width, lower-cased. */
export function foldHan(text: string): string {
  const plain = text.normalize('NFKC').toLowerCase();
  return HAN.test(plain) ? converter()(plain) : plain;
}
