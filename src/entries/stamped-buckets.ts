/**
 * Reading the files of `.mem/entries/heads/`, each of which carries its own generation (a hash of
 * what it holds, gen-write.ts) that the heads' meta, written last, names: a file is taken only with
 * that generation, so one of another refresh, forged or half-written reads as missing. A bucketed
 * index (the id index, the chain links) is read lazily: each bucket once, on first use, checked for
 * its generation and shape. A bucket not listed as held is empty; one missing, damaged or of another
 * generation throws, so the caller answers from the whole table instead of from a half-read index.
 * No node:crypto here: reads only compare generations.
 */
import path from 'node:path';
import { readDerivedJson } from '../write/atomic.js';

/** The file `name` of `dir` when it carries generation `gen`; else undefined. */
export function readGenFile(dir: string, name: string, gen: string): Record<string, unknown> | undefined {
  const v = readDerivedJson(path.join(dir, name)) as Record<string, unknown> | undefined;
  return v && typeof v === 'object' && v.digest === gen ? v : undefined;
}

export function stampedBuckets<T>(
  dir: string,
  fileOf: (b: number) => string,
  gens: Record<string, string>,
  held: Iterable<number>,
  valid: (v: Record<string, unknown>) => T | undefined,
  empty: T,
): (b: number) => T {
  const listed = new Set(held);
  const read = new Map<number, T>();
  return (b) => {
    if (!listed.has(b)) return empty;
    if (!read.has(b)) {
      const name = fileOf(b);
      const v = Object.hasOwn(gens, name) ? readGenFile(dir, name, gens[name]!) : undefined;
      const got = v ? valid(v) : undefined;
      if (got === undefined) throw new Error(`${name} is not of this build`);
      read.set(b, got);
    }
    return read.get(b)!;
  };
}
