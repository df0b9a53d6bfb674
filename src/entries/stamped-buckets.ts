/**
 * A bucketed derived index read lazily (the id index and the chain links in `.mem/entries/heads/`):
 * each bucket file is read once, on first use, and must carry the generation the heads' meta names
 * for it (gen-files.ts) and pass its shape check. A bucket not listed as held is empty; one missing,
 * damaged or of another generation throws, so the caller answers from the whole table instead of
 * from a half-read index.
 */
import { readGenFile } from './gen-files.js';

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
