/**
 * Walking a workspace folder as jobs that read memory do. The walk never follows a link to a folder
 * (a Dirent of a link is no directory): one pointing back up the tree (`memory/loop -> ..`) would
 * make a recursive listing loop forever, and every command that loads entries would hang.
 */
import fs from 'node:fs';
import path from 'node:path';
import { outsideTarget, warnOutsideLink } from '../core/outside-link.js';
import { regularFile } from '../core/regular-file.js';

/**
 * Calls `visit` for every entry that is not a folder under `root` (its absolute path, its path from
 * `root` with `/`), descending into the folders `enter` accepts. A folder that cannot be listed is
 * passed over.
 */
export function walkFolder(
  root: string,
  visit: (abs: string, rel: string, d: fs.Dirent) => void,
  enter: (name: string) => boolean = () => true,
): void {
  const walk = (dir: string, rel: string) => {
    let names: fs.Dirent[];
    try {
      names = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const d of names) {
      const abs = path.join(dir, d.name);
      const key = rel ? `${rel}/${d.name}` : d.name;
      if (d.isDirectory()) {
        if (enter(d.name)) walk(abs, key);
      } else visit(abs, key, d);
    }
  };
  walk(root, '');
}

/**
 * The Markdown files of a memory folder: `.md` regular files (a link to a file inside the workspace counts), never inside
 * a hidden folder (`.locks/`) and never a hidden file (memfold's temp files are `.<name>.mem-tmp-…`),
 * as the search index's scan. Paths relative to `root` with `/`, sorted; none when `root` is missing.
 */
export function markdownFilesUnder(root: string, workspace = path.dirname(root)): string[] {
  return statedMarkdownFiles(root, workspace).map((f) => f.rel);
}

/** What a listing keeps of a file's stat: not the Stats object (four Dates on Node 20), which 7,000 files kept alive long enough to cost garbage collection. */
export interface FileStamp {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

/** markdownFilesUnder with each file's size and times, from the one stat the listing makes. */
export function statedMarkdownFiles(
  root: string,
  workspace = path.dirname(root),
): Array<{ rel: string; st: FileStamp }> {
  const out: Array<{ rel: string; st: FileStamp }> = [];
  const visible = (name: string) => !name.startsWith('.');
  walkFolder(
    root,
    (abs, rel, d) => {
      if (!visible(d.name) || !d.name.endsWith('.md')) return;
      const st = regularFile(abs);
      if (!st) return;
      // A link leading out of the workspace (core/outside-link.ts) is left out, with one warning.
      const outside = d.isSymbolicLink() ? outsideTarget(abs, [workspace]) : undefined;
      if (outside) return warnOutsideLink(path.relative(workspace, abs).split(path.sep).join('/'), outside);
      out.push({ rel, st: { size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs } });
    },
    visible,
  );
  return out.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
}
