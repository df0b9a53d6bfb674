/**
 * The chain links of every entry (`links.json` and `links-NNN.json` beside the id index in `.mem/entries/heads/`): who
 * names an id in `supersedes` or `retracts`, and which ids share a key in one scope. With them and
 * the id index, `mem trace` and `memory_trace` follow one chain by reading the few table buckets its
 * entries sit in, instead of the whole table (156,000 entries, 101 MB at 10,000 files: 2.9-4.3 s).
 * Bucketed like the id index (an id, or a scoped key, by its hash), so a chain reads a few small
 * files, not all links (6.6 MB in one file took 96 ms to read).
 *
 * Invariant: each links file carries its own generation, which the heads' meta (written last) names,
 * and is read only through that meta, so the links describe memory/ exactly as the id index does; a
 * bucket of another generation reads as an error, which the reader turns into the whole table's
 * answer. Keys are scoped as the chain walk scopes them (lifecycle.ts scopedKeyOf, on the entries as
 * written). Each id is kept with its file, so a refresh replaces the changed files' ids in a few
 * lists (heads-delta.ts) instead of rebuilding every list.
 */
import { append } from '../core/group.js';
import { readGenFile } from './stamped-buckets.js';
import type { GenFiles } from './gen-write.js';
import { stampedBuckets } from './stamped-buckets.js';
import { bucketOfText } from './heads-hash.js';
import { getField } from './model.js';
import { olderOf, scopedKeyOf } from './lifecycle.js';
import type { EntryRecord } from './store.js';

const BUCKETS = 256;
export const linksFile = (b: number) => `links-${String(b).padStart(3, '0')}.json`;
/** The buckets written (a small workspace leaves most empty). */
export const LIST = 'links.json';
export const linkBucketOf = (text: string) => bucketOfText(text, BUCKETS);

/** An id and the file holding it. */
export type Held = [id: string, file: string];

export interface Links {
  /** The ids whose `supersedes` or `retracts` name `id`. */
  newer(id: string): string[];
  /** The ids holding a scoped key. */
  sameKey(scopedKey: string): string[];
}

/** Old id → the entries naming it in `supersedes` or `retracts`; scoped key → the entries holding it; each in file order. */
export interface LinkLists {
  newer: Map<string, Held[]>;
  keys: Map<string, Held[]>;
}

interface Bucket {
  newer: Record<string, Held[]>;
  keys: Record<string, Held[]>;
}

/** One entry's links: the ids it names, and its scoped key. */
export function linksOf(r: EntryRecord): { older: string[]; key: string | undefined } {
  const key = getField(r.entry, 'key')?.trim();
  return { older: olderOf(r), key: key ? scopedKeyOf(r, key) : undefined };
}

/** Every entry's links, in file order: what the links files store, and what a trace without them builds. */
export function chainLinks(records: EntryRecord[]): LinkLists {
  const newer = new Map<string, Held[]>();
  const keys = new Map<string, Held[]>();
  for (const r of records) {
    if (!r.id) continue;
    const { older, key } = linksOf(r);
    for (const old of older) append(newer, old, [r.id, r.file]);
    if (key) append(keys, key, [r.id, r.file]);
  }
  return { newer, keys };
}

const sorted = (m: Map<string, Held[]>, keys: Iterable<string>) =>
  Object.fromEntries([...keys].sort().flatMap((k) => (m.get(k)?.length ? [[k, m.get(k)!]] : [])));

/**
 * Writes the buckets `touched` (every bucket when undefined) from `lists`, whose maps hold every list
 * of those buckets, and the list of buckets held; returns the buckets now held.
 */
export function writeLinks(files: GenFiles, lists: LinkLists, held: number[], touched?: Set<number>): number[] {
  const keysOf = Array.from({ length: BUCKETS }, () => ({ newer: [] as string[], keys: [] as string[] }));
  for (const k of lists.newer.keys()) keysOf[linkBucketOf(k)]!.newer.push(k);
  for (const k of lists.keys.keys()) keysOf[linkBucketOf(k)]!.keys.push(k);
  const now = new Set(held);
  for (let b = 0; b < BUCKETS; b++) {
    if (touched && !touched.has(b)) continue;
    const bucket: Bucket = { newer: sorted(lists.newer, keysOf[b]!.newer), keys: sorted(lists.keys, keysOf[b]!.keys) };
    if (Object.keys(bucket.newer).length || Object.keys(bucket.keys).length) {
      files.put(linksFile(b), bucket);
      now.add(b);
    } else if (now.delete(b)) files.drop(linksFile(b));
  }
  const list = [...now].sort((x, y) => x - y);
  files.put(LIST, { held: list });
  return list;
}

/** The lists of bucket `b` as written under generation `gen` (a refresh updating it), or undefined when missing or damaged. */
export function readLinkBucket(dir: string, b: number, gen: string | undefined): LinkLists | undefined {
  const v = gen ? readGenFile(dir, linksFile(b), gen) : undefined;
  if (!v || !isLists(v.newer) || !isLists(v.keys)) return undefined;
  return { newer: new Map(Object.entries(v.newer)), keys: new Map(Object.entries(v.keys)) };
}

/**
 * The links of the generations `gens` names (the heads' meta), or undefined when their list is
 * missing or of another generation. A bucket read later that is missing, damaged or of another
 * generation throws: the caller answers from the whole table.
 */
export function readLinks(dir: string, gens: Record<string, string>): Links | undefined {
  const list = gens[LIST] ? readGenFile(dir, LIST, gens[LIST]) : undefined;
  if (!list || !Array.isArray(list.held)) return undefined;
  const bucket = stampedBuckets<Bucket>(
    dir,
    linksFile,
    gens,
    list.held as number[],
    (v) => (isLists(v.newer) && isLists(v.keys) ? (v as unknown as Bucket) : undefined),
    { newer: {}, keys: {} },
  );
  const at = (m: Record<string, Held[]>, k: string) => (Object.hasOwn(m, k) ? m[k]!.map((h) => h[0]) : []);
  const of = (text: string) => bucket(linkBucketOf(text));
  return { newer: (id) => at(of(id).newer, id), sameKey: (k) => at(of(k).keys, k) };
}

const isLists = (x: unknown): x is Record<string, Held[]> =>
  !!x &&
  typeof x === 'object' &&
  !Array.isArray(x) &&
  Object.values(x).every(
    (l) => Array.isArray(l) && l.every((h) => Array.isArray(h) && typeof h[0] === 'string' && typeof h[1] === 'string'),
  );
