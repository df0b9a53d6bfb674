/**
 * A fingerprint of a tier's file list: every path with its size, exact mtime and ctime, in path
 * order (the ctime too: `touch -r` restores an edited file's mtime, never its ctime). The
 * tier file records the fingerprint of its manifest; a search or `mem index` whose scan gives the same
 * fingerprint knows that no file changed without parsing the manifest (the manifest of 7,000 files
 * is most of a tier file). SHA-1 of the paths joined by NUL (which no path holds) and of the numbers' raw float64 bits: native
 * hashing, no number formatting (a JavaScript hash of 7,000 files cost 7 ms in a fresh process, this 2).
 */
import { createHash } from 'node:crypto';

/** What tells a file changed without reading it. */
export interface FileStat {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

export interface StampedFile extends FileStat {
  path: string;
}

export function sameStat(a: FileStat, b: FileStat): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;
}

/** `files` must be in path order (scanWorkspace's order, and sorted manifest keys). */
export function filesStamp(files: readonly StampedFile[]): string {
  const paths = new Array<string>(files.length);
  const numbers = new Float64Array(files.length * 3);
  for (let i = 0; i < files.length; i++) {
    const f = files[i]!;
    paths[i] = f.path;
    numbers[3 * i] = f.size;
    numbers[3 * i + 1] = f.mtimeMs;
    numbers[3 * i + 2] = f.ctimeMs;
  }
  return createHash('sha1').update(paths.join('\0')).update(numbers).digest('hex');
}

/** The stamp of a manifest (path → size, mtime, ctime): the same as that of a scan that matches it. */
export function manifestStamp(files: Record<string, FileStat>): string {
  return filesStamp(Object.keys(files).sort().map((path) => ({ path, size: files[path]!.size, mtimeMs: files[path]!.mtimeMs, ctimeMs: files[path]!.ctimeMs })));
}
