/**
 * Text folding shared by indexing and querying: Unicode NFKC (full-width → half-width), lower case,
 * and Traditional → Simplified Chinese through opencc-js with the Taiwan phrase tables (快取 → 缓存,
 * 資料庫 → 数据库). Both sides fold the same way, so `為什麼放棄 Redis 緩存` meets `我们决定放弃 Redis 缓存`.
 *
 * opencc-js is loaded on first use, only for text that holds Han characters (its CommonJS build: the
 * same tables as the ES build, and the load stays synchronous). Building its converter costs ~40 ms
 * (7,400 dictionary entries into tries, in cold code), more than a whole query. So short work (a
 * query, the snippets of its results, one edited file) gets a converter built only from the entries
 * that can apply to its characters (smallConverter): the same stages, the same tries, the same
 * entries in the same order, so the same output (a test compares both on many texts). Bulk work
 * (indexing many chunks, texts of thousands of distinct characters, a fifth batch) builds the full
 * converter once and uses it from then on.
 */
import { createRequire } from 'node:module';

type Convert = (text: string) => string;
interface Trie {
  loadDictGroup(dicts: string[]): void;
  convert(text: string): string;
  segment(text: string): string[];
}
interface Tw2sp {
  normalizationChain?: string[][];
  segmentation?: string[];
  conversionChain: string[][];
}
interface OpenCC {
  Converter(o: { from: string; to: string }): Convert;
  Trie?: new () => Trie;
  /** Not part of opencc-js's documented API: read only through tw2sp(), which checks its shape. */
  Locale?: { configs?: Record<string, unknown> };
}

const strings = (x: unknown): x is string[] => Array.isArray(x) && x.every((d) => typeof d === 'string');
const groups = (x: unknown): x is string[][] => Array.isArray(x) && x.every(strings);

/**
 * The tw2sp dictionaries of opencc-js (an undocumented part: the package is pinned, and a release that
 * reshapes it makes this undefined, so folding falls back to the library's own converter).
 */
export function tw2sp(l: OpenCC): Tw2sp | undefined {
  const cfg = l.Locale?.configs?.tw2sp as Partial<Tw2sp> | undefined;
  if (typeof l.Trie !== 'function' || !cfg || !groups(cfg.conversionChain)) return undefined;
  if (
    (cfg.normalizationChain !== undefined && !groups(cfg.normalizationChain)) ||
    (cfg.segmentation !== undefined && !strings(cfg.segmentation))
  )
    return undefined;
  return cfg as Tw2sp;
}

const HAN = /\p{Script=Han}/u;
/** A small converter is built for at most this many distinct characters (beyond, the full one pays). */
const SMALL_CHARS = 3_000;
/** Small converters built (by prepareFold) before the full one is judged cheaper. */
const SMALL_BUILDS = 4;

let lib: OpenCC | undefined;
let full: Convert | undefined;
let small: { chars: Set<string>; convert: Convert } | undefined;
let smallBuilds = 0;

export function hasHan(text: string): boolean {
  return HAN.test(text);
}

function opencc(): OpenCC {
  return (lib ??= createRequire(import.meta.url)('opencc-js/t2cn') as OpenCC);
}

/** The library's own converter, as every fold used before (and the reference of the tests). */
export function fullConverter(): Convert {
  return (full ??= opencc().Converter({ from: 'twp', to: 'cn' }));
}

/** Entries of `dict` ("key value|key value|…") whose key holds only characters of `chars`, in order. */
function applicable(dict: string, chars: Set<string>, out: Set<string>): string {
  const kept: string[] = [];
  for (const entry of dict.split('|')) {
    const space = entry.indexOf(' ');
    let ok = space > 0;
    for (const ch of entry.slice(0, space)) {
      if (!chars.has(ch)) {
        ok = false;
        break;
      }
    }
    if (!ok) continue;
    kept.push(entry);
    for (const ch of entry.slice(space + 1)) out.add(ch);
  }
  return kept.join('|');
}

/** A trie of the group's applicable entries; `chars` grows by what they can write. */
function trieOf(l: OpenCC, group: string[], chars: Set<string>): Trie {
  const t = new l.Trie!();
  const out = new Set<string>();
  // loadDictGroup loads the group last-to-first (earlier dicts win); empty dicts are left out.
  t.loadDictGroup(group.map((d) => applicable(d, chars, out)).filter(Boolean));
  for (const ch of out) chars.add(ch);
  return t;
}

/**
 * The tw2sp conversion as opencc-js's ConverterBuilder assembles it (normalisation tries, then
 * segmentation, then the conversion tries per segment), from the entries that can match text made
 * of `input`'s characters. An entry matches only where all its key's characters occur, and each
 * stage's characters are the previous stage's plus what its kept entries write, so every stage
 * keeps every entry that could apply, in the library's order. Where opencc-js's dictionaries are not
 * there as expected (tw2sp), the library's own converter.
 */
export function smallConverter(input: Set<string>, l: OpenCC = opencc()): Convert {
  const cfg = tw2sp(l);
  if (!cfg) return fullConverter();
  const chars = new Set(input);
  const normalize = (cfg.normalizationChain ?? []).map((g) => trieOf(l, g, chars));
  const seg = cfg.segmentation ? trieOf(l, cfg.segmentation, new Set(chars)) : undefined;
  const convert = cfg.conversionChain.map((g) => trieOf(l, g, chars));
  return (text) => {
    const normal = normalize.reduce((s, t) => t.convert(s), text);
    const segments = seg ? seg.segment(normal) : [normal];
    return convert.reduce((ss, t) => ss.map((s) => t.convert(s)), segments).join('');
  };
}

function covers(chars: Set<string>, text: string): boolean {
  for (const ch of text) if (!chars.has(ch)) return false;
  return true;
}

/**
 * Readies folding for these texts at once (a query's result texts, the files of an overlay), so one
 * small build serves them all; many or large texts get the full converter instead.
 */
export function prepareFold(texts: string[]): void {
  if (full) return;
  const han = texts.filter(hasHan);
  if (!han.length || (small && han.every((t) => covers(small!.chars, t)))) return;
  const chars = new Set(small?.chars);
  for (const t of han) for (const ch of t.normalize('NFKC').toLowerCase()) chars.add(ch);
  if (smallBuilds >= SMALL_BUILDS || chars.size > SMALL_CHARS) {
    fullConverter();
    return;
  }
  small = { chars, convert: smallConverter(chars) };
  smallBuilds++;
}

/**
 * Unprepared text: the first one (a query) gets a small converter of its own; after that, text the
 * small converter does not cover means bulk work (indexing), which the full converter serves best.
 */
function converter(text: string): Convert {
  if (full) return full;
  if (small && covers(small.chars, text)) return small.convert;
  if (!small) prepareFold([text]);
  return small && covers(small.chars, text) ? small.convert : fullConverter();
}

export function toSimplified(text: string): string {
  return hasHan(text) ? converter(text)(text) : text;
}

export function fold(text: string): string {
  return toSimplified(text.normalize('NFKC').toLowerCase());
}
