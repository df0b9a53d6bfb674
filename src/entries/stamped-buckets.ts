/**
 * A bucketed derived index read lazily (the id index and the chain links in `.mem/entries/heads/`):
 * each bucket file is read once, on first use, and must carry the digest the index was written with
 * and pass its shape check. A bucket not listed as held is empty; one missing, damaged or of other
 * files throws, so the caller answers from the whole table instead of from a half-read index.
 */
import path from 'node:path';
import { readDerivedJson } from '../write/atomic.js';

export function stampedBuckets<T>(
  dir: string,
  fileOf: (b: number) => string,
  digest: string,
  held: Iterable<number>,
  valid: (v: Record<string, unknown>) => T | undefined,
  empty: T,
): (b: number) => T {
  const listed = new Set(held);
  const read = new Map<number, T>();
  return (b) => {
    if (!listed.has(b)) return empty;
    if (!read.has(b)) {
      const v = readDerivedJson(path.join(dir, fileOf(b))) as Record<string, unknown> | undefined;
      const got = v?.digest === digest ? valid(v) : undefined;
      if (got === undefined) throw new Error(`${fileOf(b)} is not of this build`);
      read.set(b, got);
    }
    return read.get(b)!;
  };
}
