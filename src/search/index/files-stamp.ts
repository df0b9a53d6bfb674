/**
 * A fingerprint of a tier's file list: every path with its size, exact mtime and ctime, in path
 * order (the ctime too: `touch -r` restores an edited file's mtime, never its ctime). The
 * tier file records the fingerprint of its manifest; a search or `mem index` whose scan gives the same
 * fingerprint knows that no file changed without parsing the manifest (the manifest of 7,000 files
 * is most of a tier file). SHA-1 of the paths joined by NUL (which no path holds) and of the numbers' raw float64 bits: native
 * hashing, no number formatting (a JavaScript hash of 7,000 files cost 7 ms in a fresh process, this 2).
 */
import { createHash } from 'node:crypto';

/**
 * What tells a file changed without reading it. A manifest leaves out a ctime equal to the mtime
 * (a write sets both: most files), so the ctime costs its size and parse time only where it differs.
 */
export interface FileStat {
  size: number;
  mtimeMs: number;
  /** Undefined: the mtime. */
  ctimeMs?: number | undefined;
}

const ctime = (f: FileStat) => f.ctimeMs ?? f.mtimeMs;

export interface StampedFile extends FileStat {
  path: string;
}

export function sameStat(a: FileStat, b: FileStat): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs && ctime(a) === ctime(b);
}

/** A scanned file's stat as the manifest records it (JSON leaves out an undefined ctime). */
export function manifestStat(f: FileStat): FileStat {
  return { size: f.size, mtimeMs: f.mtimeMs, ctimeMs: ctime(f) === f.mtimeMs ? undefined : f.ctimeMs };
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
    numbers[3 * i + 2] = ctime(f);
  }
  return createHash('sha1').update(paths.join('\0')).update(numbers).digest('hex');
}

/** The stamp of a manifest (path → size, mtime, ctime): the same as that of a scan that matches it. */
export function manifestStamp(files: Record<string, FileStat>): string {
  return filesStamp(
    Object.keys(files)
      .sort()
      .map((path) => {
        const f = files[path]!;
        return { path, size: f.size, mtimeMs: f.mtimeMs, ctimeMs: f.ctimeMs };
      }),
  );
}
