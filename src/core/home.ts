/**
 * `~` for the home folder, both ways (DESIGN §4: `session_path` is stored with `~`). Apart from
 * locate.ts so read paths that only print paths (archive search, source) load no config code.
 */
import os from 'node:os';
import path from 'node:path';

export function expandHome(p: string): string {
  if (p === '~') return os.homedir();
  if (p.startsWith('~/')) return path.join(os.homedir(), p.slice(2));
  return p;
}

/** Stores a path with `~` for the home folder (DESIGN §4: session_path). */
export function tildePath(p: string): string {
  const home = os.homedir();
  return p === home ? '~' : p.startsWith(home + path.sep) ? '~' + p.slice(home.length) : p;
}
