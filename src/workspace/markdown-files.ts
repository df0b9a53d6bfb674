/**
 * The Markdown files under a workspace folder, as every job that reads memory lists them: `.md`
 * regular files (a link to a file counts), never inside a hidden folder (`.locks/`) and never a
 * hidden file (memfold's temp files are `.<name>.mem-tmp-…`), as the search index's scan. A link to a
 * folder is not followed: one pointing back up the tree (`memory/loop -> ..`) would make a recursive
 * listing loop forever, and every command that loads entries would hang.
 */
import fs from 'node:fs';
import path from 'node:path';
import { regularFile } from '../core/regular-file.js';

/** Paths relative to `root` with `/`, sorted; none when `root` is missing or not a folder. */
export function markdownFilesUnder(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string, rel: string) => {
    let names: fs.Dirent[];
    try {
      names = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const d of names) {
      if (d.name.startsWith('.')) continue;
      const key = rel ? `${rel}/${d.name}` : d.name;
      if (d.isDirectory()) walk(path.join(dir, d.name), key);
      else if (d.name.endsWith('.md') && regularFile(path.join(dir, d.name))) out.push(key);
    }
  };
  walk(root, '');
  return out.sort();
}
