/**
 * What each ready pack (pack-cache.ts) was made from beyond its key: the files its entries are in,
 * with their stamps in the entry table then (`deps.json`). A pack whose key is unchanged is made
 * again only when one of those files changed and an entry it holds reads otherwise now (a field
 * the heads do not keep, such as `why`, edited in place); an edit elsewhere in the file leaves it.
 *
 * Invariant: a pack is kept only when every entry it holds is, whole, what it holds (kept.ts), so a
 * kept pack is the pack a rebuild would make from the same heads.
 */
import path from 'node:path';
import { readStamps } from '../entries/table-buckets.js';
import { readDerivedJson } from '../write/atomic.js';
import { kept, recordOf, type KeptRecords } from './kept.js';
import type { ScopeFile } from './pack-cache-files.js';

export const DEPS = 'deps.json';
export type Deps = Record<string, Array<[file: string, stamp: string]>>;

export function readDeps(dir: string): Deps {
  const v = readDerivedJson(path.join(dir, DEPS));
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Deps) : {};
}

/** The entry table's stamps now, as text per file. */
export function tableStamps(workspace: string): Map<string, string> {
  return new Map(Object.entries(readStamps(workspace)).map(([f, s]) => [f, s.join(',')]));
}

/** The files a pack's entries are in, with their stamps now. */
export function depsOf(file: ScopeFile, stamps: Map<string, string>): Array<[string, string]> {
  const files = [...new Set([...file.core, ...file.scope].map((k) => k[0]))].sort();
  return files.map((f) => [f, stamps.get(f) ?? '']);
}

/** Whether none of a pack's files changed since it was made. */
export const unchanged = (deps: Array<[string, string]> | undefined, stamps: Map<string, string>) =>
  Array.isArray(deps) && deps.every(([f, s]) => stamps.get(f) === s);

/** Whether the pack `file` (of an unchanged key) still holds its entries as they read now. */
export async function stillWhole(
  file: ScopeFile | undefined,
  deps: Array<[string, string]> | undefined,
  stamps: Map<string, string>,
  records: KeptRecords,
): Promise<boolean> {
  if (!file || !Array.isArray(deps)) return false;
  const changed = new Set(deps.flatMap(([f, s]) => (stamps.get(f) === s ? [] : [f])));
  if (!changed.size) return true;
  for (const k of [...file.core, ...file.scope]) {
    if (!changed.has(k[0])) continue;
    if (JSON.stringify(kept(await records.whole(recordOf(k)))) !== JSON.stringify(k)) return false;
  }
  return true;
}
