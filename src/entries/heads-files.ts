/**
 * memory/'s Markdown files with their size, mtime and ctime, and their stamp: what the heads, the id
 * index, the ready packs and status's stored summary are checked against before a read trusts them
 * (heads-store.ts). Every read without a resident process states every file (an edit in place moves
 * no folder's mtime), so this is the one loop a `mem context` or `mem status` at 10,000 files spends
 * most of its time in: one readdir per folder, one stat per `.md` file, no path normalising, no
 * per-file closures, the stamp from the numbers' bits (heads-hash.ts), not their text.
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

function listInto(dir: string, rel: string, workspace: string, out: StatedMemoryFile[]): void {
  let names: fs.Dirent[];
  try {
    names = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const d of names) {
    const name = d.name;
    if (name.charCodeAt(0) === DOT) continue;
    const abs = dir + path.sep + name;
    if (d.isDirectory()) {
      listInto(abs, `${rel}${name}/`, workspace, out);
      continue;
    }
    if (!name.endsWith('.md')) continue;
    let st: fs.Stats | undefined;
    try {
      st = fs.statSync(abs, { throwIfNoEntry: false });
    } catch {
      // A link loop, a name too long: nothing to read.
      continue;
    }
    // A FIFO, a dangling link, a folder behind a link: not a file to read (core/regular-file.ts).
    if (!st?.isFile()) continue;
    // A link leading out of the workspace (core/outside-link.ts) is left out, with one warning.
    const outside = d.isSymbolicLink() ? outsideTarget(abs, [workspace]) : undefined;
    if (outside) {
      warnOutsideLink(path.relative(workspace, abs).split(path.sep).join('/'), outside);
      continue;
    }
    out.push({ file: rel + name, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs });
  }
}

/** memory/'s Markdown files as entry readers list them, each with the stat the listing made, sorted by path. */
export function statedMemoryFiles(workspace: string): StatedMemoryFile[] {
  const out: StatedMemoryFile[] = [];
  listInto(path.join(workspace, 'memory'), 'memory/', workspace, out);
  // readdir's order is the file system's: sorted here, as markdownFilesUnder sorts.
  for (let i = 1; i < out.length; i++) {
    if (out[i - 1]!.file > out[i]!.file) return out.sort((x, y) => (x.file < y.file ? -1 : x.file > y.file ? 1 : 0));
  }
  return out;
}

// Raised when what the stamp covers changes.
const LAYOUT = 4;

/** Every memory file's path, size, mtime and ctime, as one stamp: what the id index and the stored summary are stamped with. */
export function filesDigestOf(files: StatedMemoryFile[]): string {
  const h = new Stamp().num(LAYOUT).num(files.length);
  for (const f of files) h.text(f.file).num(f.size).num(f.mtimeMs).num(f.ctimeMs);
  return h.hex();
}
