/**
 * The git repository a folder is in, read from the files alone (no `git` process: `mem context`
 * runs at every session start). A worktree or submodule has a `.git` file naming its git folder;
 * a linked worktree's `commondir` leads to the repository's own config, so every worktree of one
 * repository, and every clone of one remote, gives one name.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface GitRepo {
  /** The top folder of the repository (for a linked worktree: the main checkout's, when known). */
  top: string;
  /** The name in the `origin` remote's URL (`git@host:me/shop.git` → `shop`), if any. */
  origin?: string;
}

const read = (p: string) => {
  try {
    return fs.readFileSync(p, 'utf8');
  } catch {
    return undefined;
  }
};

/** The git folder `.git` at `dir` points at: itself when a folder, the `gitdir:` of a file. */
function gitDirAt(dir: string): string | undefined {
  const dotGit = path.join(dir, '.git');
  let st: fs.Stats;
  try {
    st = fs.statSync(dotGit);
  } catch {
    return undefined;
  }
  if (st.isDirectory()) return dotGit;
  const m = /^gitdir:\s*(.+?)\s*$/m.exec(read(dotGit) ?? '');
  return m ? path.resolve(dir, m[1]!) : undefined;
}

/** The last part of a remote URL, without `.git`: `https://github.com/me/shop.git/` → `shop`. */
export function repoNameOfUrl(url: string): string | undefined {
  const name = url
    .trim()
    .replace(/[/\\]+$/, '')
    .replace(/\.git$/i, '')
    .split(/[/\\:]/)
    .pop();
  return name || undefined;
}

/** The `url` of `[remote "origin"]` in a git config text. */
export function originUrl(config: string): string | undefined {
  let inOrigin = false;
  for (const raw of config.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('[')) inOrigin = /^\[\s*remote\s+"origin"\s*\]$/.test(line);
    else if (inOrigin) {
      const m = /^url\s*=\s*(.+)$/.exec(line);
      if (m) return m[1]!.replace(/^"(.*)"$/, '$1');
    }
  }
  return undefined;
}

/** The repository holding `folder` (the folder itself or an ancestor), or undefined when none or the folder is missing. */
export function gitRepoOf(folder: string): GitRepo | undefined {
  let dir = path.resolve(folder);
  if (!fs.existsSync(dir)) return undefined;
  for (;;) {
    const gitDir = gitDirAt(dir);
    if (gitDir) {
      const common = read(path.join(gitDir, 'commondir'))?.trim();
      const commonDir = common ? path.resolve(gitDir, common) : gitDir;
      const url = originUrl(read(path.join(commonDir, 'config')) ?? '');
      // A linked worktree's common folder is the main checkout's `.git`: its parent names the repository.
      const top = common && path.basename(commonDir) === '.git' ? path.dirname(commonDir) : dir;
      const origin = url ? repoNameOfUrl(url) : undefined;
      return { top, ...(origin ? { origin } : {}) };
    }
    const up = path.dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}
