/**
 * memory/'s Markdown files with their size, mtime and ctime, and their stamp: what the heads, the id
 * index, the ready packs and status's stored summary are checked against before a read trusts them
 * (heads-store.ts). Every read without a resident process states every file (an edit in place moves
 * no folder's mtime), so this is the one loop a `mem context` or `mem status` at 10,000 files spends
 * most of its time in: one readdir per folder, one stat per `.md` file in path order (no sort of the
 * records after), no path normalising, the stamp from the numbers' bits (heads-hash.ts), not their
 * text, and for a read that only compares stamps no record per file at all.
 *
 * Invariant: the same files as workspace/markdown-files.ts statedMarkdownFiles lists (visible `.md`
 * regular files, links followed only inside the workspace, hidden folders skipped, sorted by path),
 * with the same stats; test/heads-files.test.ts compares the two.
 */
import fs from 'node:fs';
import path from 'node:path';
import { outsideTarget, warnOutsideLink } from '../core/outside-link.js';
import { Stamp } from './heads-hash.js';

export interface StatedMemoryFile {
  /** Workspace-relative, with `/`: `memory/2026-01-02.md`. */
  file: string;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

const DOT = 46;
const SLASH = 47;
const STAT = { throwIfNoEntry: false } as const;

type Visit = (file: string, size: number, mtimeMs: number, ctimeMs: number) => void;

/**
 * Visits the `.md` files under `dir` in the order of their paths (what a sort of the whole listing
 * gives): each folder's names sorted with a folder as `name/`, so `b.md` comes before `b/x.md` as
 * `memory/b.md` sorts before `memory/b/x.md`. Strings sorted without a comparator (V8 sorts them
 * natively), the few folders and links kept apart by name.
 */
function listInto(dir: string, rel: string, workspace: string, visit: Visit): void {
  let names: fs.Dirent[];
  try {
    names = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  const keys: string[] = [];
  let links: Set<string> | undefined;
  for (const d of names) {
    const name = d.name;
    if (name.charCodeAt(0) === DOT) continue;
    if (d.isDirectory()) keys.push(`${name}/`);
    else if (name.endsWith('.md')) {
      keys.push(name);
      if (d.isSymbolicLink()) (links ??= new Set()).add(name);
    }
  }
  keys.sort();
  for (const key of keys) {
    if (key.charCodeAt(key.length - 1) === SLASH) {
      listInto(dir + path.sep + key.slice(0, -1), rel + key, workspace, visit);
      continue;
    }
    const abs = dir + path.sep + key;
    let st: fs.Stats | undefined;
    try {
      st = fs.statSync(abs, STAT);
    } catch {
      // A link loop, a name too long: nothing to read.
      continue;
    }
    // A FIFO, a dangling link, a folder behind a link: not a file to read (core/regular-file.ts).
    if (!st?.isFile()) continue;
    // A link leading out of the workspace (core/outside-link.ts) is left out, with one warning.
    const outside = links?.has(key) ? outsideTarget(abs, [workspace]) : undefined;
    if (outside) {
      warnOutsideLink(path.relative(workspace, abs).split(path.sep).join('/'), outside);
      continue;
    }
    visit(rel + key, st.size, st.mtimeMs, st.ctimeMs);
  }
}

/** memory/'s Markdown files as entry readers list them, each with the stat the listing made, sorted by path. */
export function statedMemoryFiles(workspace: string): StatedMemoryFile[] {
  const out: StatedMemoryFile[] = [];
  listInto(path.join(workspace, 'memory'), 'memory/', workspace, (file, size, mtimeMs, ctimeMs) =>
    out.push({ file, size, mtimeMs, ctimeMs }),
  );
  return out;
}

// Raised when what the stamp covers changes.
const LAYOUT = 5;

/** The stamp of files given as their paths (joined with NUL, which no file name holds) and, three per file, their size, mtime and ctime. */
const stampOf = (paths: string[], numbers: number[]) =>
  new Stamp().num(LAYOUT).text(paths.join('\0')).nums(numbers).hex();

/** Every memory file's path, size, mtime and ctime, as one stamp: what the id index and the stored summary are stamped with. */
export function filesDigestOf(files: StatedMemoryFile[]): string {
  const paths: string[] = [];
  const numbers: number[] = [];
  for (const f of files) {
    paths.push(f.file);
    numbers.push(f.size, f.mtimeMs, f.ctimeMs);
  }
  return stampOf(paths, numbers);
}

/**
 * filesDigestOf(statedMemoryFiles(workspace)), made while listing: no record kept per file (7,000 of
 * them cost garbage collection). What a read that only compares stamps needs.
 */
export function memoryFilesDigest(workspace: string): string {
  const paths: string[] = [];
  const numbers: number[] = [];
  listInto(path.join(workspace, 'memory'), 'memory/', workspace, (file, size, mtimeMs, ctimeMs) => {
    paths.push(file);
    numbers.push(size, mtimeMs, ctimeMs);
  });
  return stampOf(paths, numbers);
}
