/**
 * Text folding shared by indexing and querying: Unicode NFKC (full-width → half-width), lower case,
 * and Traditional → Simplified Chinese through opencc-js with the Taiwan phrase tables (快取 → 缓存,
 * 資料庫 → 数据库). Both sides fold the same way, so `為什麼放棄 Redis 緩存` meets `我们决定放弃 Redis 缓存`.
 * opencc-js is loaded and its converter built on first use, only for text that holds Han
 * characters, so an English query never loads it (its CommonJS build, the same tables as the ES
 * build, so the load can stay synchronous).
 */
import { createRequire } from 'node:module';

type Convert = (text: string) => string;

const HAN = /\p{Script=Han}/u;
let t2s: Convert | undefined;

export function hasHan(text: string): boolean {
  return HAN.test(text);
}

function converter(): Convert {
  if (!t2s) {
    const OpenCC = createRequire(import.meta.url)('opencc-js/t2cn') as { Converter(o: { from: string; to: string }): Convert };
    t2s = OpenCC.Converter({ from: 'twp', to: 'cn' });
  }
  return t2s;
}

export function toSimplified(text: string): string {
  return hasHan(text) ? converter()(text) : text;
}

export function fold(text: string): string {
  return toSimplified(text.normalize('NFKC').toLowerCase());
}
