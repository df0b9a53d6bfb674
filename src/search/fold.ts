/**
 * Text folding shared by indexing and querying: Unicode NFKC (full-width → half-width), lower case,
 * and Traditional → Simplified Chinese through opencc-js with the Taiwan phrase tables (快取 → 缓存,
 * 資料庫 → 数据库). Both sides fold the same way, so `為什麼放棄 Redis 緩存` meets `我们决定放弃 Redis 缓存`.
 * The converter is built on first use and only for text that holds Han characters, so an English
 * query never pays for it.
 */
import * as OpenCC from 'opencc-js/t2cn';

const HAN = /\p{Script=Han}/u;
let t2s: ((text: string) => string) | undefined;

export function hasHan(text: string): boolean {
  return HAN.test(text);
}

export function toSimplified(text: string): string {
  if (!hasHan(text)) return text;
  const convert = (t2s ??= OpenCC.Converter({ from: 'twp', to: 'cn' }));
  return convert(text);
}

export function fold(text: string): string {
  return toSimplified(text.normalize('NFKC').toLowerCase());
}
