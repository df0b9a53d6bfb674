/**
 * Derived files (`.mem/entries/`) parsed once per version in a long-lived process: `mem mcp` read and
 * parsed a 1.8 MB bucket of the entry table at 10,000 files for every memory_get. Off unless the
 * process asks (keepParsedFiles): a one-shot command parses each file once anyway, and holding what
 * it read would only raise its peak memory.
 *
 * Invariant: a kept value is returned only for a file stated now exactly as it was stated before the
 * parse read it (inode, size, mtime, ctime). Derived files are replaced by rename (write/atomic.ts),
 * so a rewrite is a new inode; a file replaced between the stat and the read is kept under the older
 * stamp and parsed again on the next call. At most `max` files are kept, least recently used dropped.
 */
import fs from 'node:fs';

let kept: Map<string, { stamp: string; value: unknown }> | undefined;
let max = 0;

/** From now on, keep up to `files` parsed files in this process. */
export function keepParsedFiles(files: number): void {
  kept ??= new Map();
  max = files;
}

/** `parse` of the file's text, kept while the file is unchanged when keeping is on. Throws as readFileSync does. */
export function parsedFile<T>(file: string, parse: (text: string) => T): T {
  if (!kept) return parse(fs.readFileSync(file, 'utf8'));
  const st = fs.statSync(file);
  const stamp = `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
  const had = kept.get(file);
  kept.delete(file);
  const value = had?.stamp === stamp ? (had.value as T) : parse(fs.readFileSync(file, 'utf8'));
  kept.set(file, { stamp, value });
  if (kept.size > max) kept.delete(kept.keys().next().value!);
  return value;
}
