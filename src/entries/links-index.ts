/**
 * The chain links of every entry (`links.json` and `links-NNN.json` beside the id index in `.mem/entries/heads/`): who
 * names an id in `supersedes` or `retracts`, and which ids share a key in one scope. With them and
 * the id index, `mem trace` and `memory_trace` follow one chain by reading the few table buckets its
 * entries sit in, instead of the whole table (156,000 entries, 101 MB at 10,000 files: 2.9-4.3 s).
 * Bucketed like the id index (an id, or a scoped key, by its hash), so a chain reads a few small
 * files, not all links (6.6 MB in one file took 96 ms to read).
 *
 * Invariant: the links are stamped with the files' digest of the id index they were written with
 * (heads-store.ts, under the same meta written last), and read only through it, so they describe
 * memory/ exactly as the id index does; a bucket of other files reads as an error, which the reader
 * turns into the whole table's answer. Keys are scoped as the chain walk scopes them (lifecycle.ts
 * scopedKeyOf, on the entries as written); only keys held by two entries or more are kept.
 */
import path from 'node:path';
import { readDerivedJson, writeDerivedFile } from '../write/atomic.js';
import { stampedBuckets } from './stamped-buckets.js';
import { append } from '../core/group.js';
import { bucketOfText } from './heads-hash.js';
import { getField } from './model.js';
import { olderOf, scopedKeyOf } from './lifecycle.js';
import type { EntryRecord } from './store.js';

const BUCKETS = 256;
const bucketFile = (b: number) => `links-${String(b).padStart(3, '0')}.json`;
/** The buckets written (a small workspace leaves most empty) and their digest. */
const LIST = 'links.json';

export interface Links {
  /** The ids whose `supersedes` or `retracts` name `id`. */
  newer(id: string): string[];
  /** The ids sharing a scoped key (two or more), none when the key has one entry. */
  sameKey(scopedKey: string): string[];
}

interface Bucket {
  digest: string;
  newer: Record<string, string[]>;
  keys: Record<string, string[]>;
}

/**
 * Every entry's links, in file order: old id → the ids naming it in `supersedes` or `retracts`, and
 * scoped key → the ids holding it. What the links files store, and what a trace without them builds.
 */
export function chainLinks(records: EntryRecord[]): { newer: Map<string, string[]>; keys: Map<string, string[]> } {
  const newer = new Map<string, string[]>();
  const keys = new Map<string, string[]>();
  for (const r of records) {
    if (!r.id) continue;
    for (const old of olderOf(r)) append(newer, old, r.id);
    const key = getField(r.entry, 'key')?.trim();
    if (key) append(keys, scopedKeyOf(r, key), r.id);
  }
  return { newer, keys };
}

export function writeLinks(dir: string, digest: string, records: EntryRecord[]): void {
  const buckets = Array.from({ length: BUCKETS }, (): Bucket => ({ digest, newer: {}, keys: {} }));
  const { newer, keys } = chainLinks(records);
  for (const [id, ids] of newer) buckets[bucketOfText(id, BUCKETS)]!.newer[id] = ids;
  for (const [k, ids] of keys) if (ids.length > 1) buckets[bucketOfText(k, BUCKETS)]!.keys[k] = ids;
  const held = buckets.flatMap((b, i) => (Object.keys(b.newer).length || Object.keys(b.keys).length ? [i] : []));
  for (const i of held) writeDerivedFile(path.join(dir, bucketFile(i)), JSON.stringify(buckets[i]));
  writeDerivedFile(path.join(dir, LIST), JSON.stringify({ digest, held }));
}

/**
 * The links written with `digest`, or undefined when their list is missing or of other files. A
 * bucket read later that is missing, damaged or of other files throws: the caller answers from the
 * whole table.
 */
export function readLinks(dir: string, digest: string): Links | undefined {
  const list = readDerivedJson(path.join(dir, LIST)) as { digest?: unknown; held?: unknown } | undefined;
  if (list?.digest !== digest || !Array.isArray(list.held)) return undefined;
  const bucket = stampedBuckets<Bucket>(
    dir,
    bucketFile,
    digest,
    list.held as number[],
    (v) => (isLists(v.newer) && isLists(v.keys) ? (v as unknown as Bucket) : undefined),
    { digest, newer: {}, keys: {} },
  );
  const at = (m: Record<string, string[]>, k: string) => (Object.hasOwn(m, k) ? m[k]! : []);
  const of = (text: string) => bucket(bucketOfText(text, BUCKETS));
  return { newer: (id) => at(of(id).newer, id), sameKey: (k) => at(of(k).keys, k) };
}

const isLists = (x: unknown): x is Record<string, string[]> =>
  !!x && typeof x === 'object' && !Array.isArray(x) && Object.values(x).every(Array.isArray);
