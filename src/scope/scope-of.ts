/**
 * The one scope function (DESIGN §5, issue 27): which project a folder belongs to. microsync asks it
 * for the folder a session ran in, `mem context` and `mem remember` for the current folder, so an
 * entry written from a session in `~/src/shop` is found by `mem context` run there. In order:
 *   1. the `scopes` mapping in mem.config.json (path glob → scope; the first pattern matching the
 *      folder or one of its parents wins),
 *   2. the name of the git repository's `origin` remote (two clones at different paths: one scope),
 *   3. the repository's top folder name (the main checkout's, for a linked worktree),
 *   4. the folder's own name.
 * A folder missing on this machine (a session recorded elsewhere) goes down the same order from the
 * path string: the mapping, then its last name.
 */
import path from 'node:path';
import { SCOPE } from '../entries/model.js';
import { projectScope } from '../entries/scope.js';
import { expandHome } from '../core/home.js';
import { gitRepoOf } from './git-repo.js';

/** `scopes` of mem.config.json: path glob → scope (`project:<name>`, `global`, or a bare project name). */
export type ScopeMapping = Record<string, string>;

export interface FolderScope {
  scope: string;
  from: 'config' | 'origin' | 'repo' | 'folder';
  /** The folder is inside a git repository (OpenClaw main sessions are global unless it is). */
  inRepo: boolean;
}

/** A mapping's value as a scope: written as one, or a bare name for `project:<name>`. */
export function mappedScope(value: string): string {
  const v = value.trim();
  return SCOPE.test(v) ? v : projectScope(v);
}

/** A path glob as a regex over `/`-separated absolute paths: `*` within a folder name, `**` across folders. */
function globRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i]!;
    if (ch === '*' && glob[i + 1] === '*') {
      re += '.*';
      i++;
    } else if (ch === '*') re += '[^/]*';
    else if (ch === '?') re += '[^/]';
    else re += ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re.replace(/\/+$/, '')}$`);
}

const slashed = (p: string) => p.replace(/\\/g, '/');

/** The scope the mapping gives `folder` (or a parent of it), if any. */
export function configuredScope(folder: string, mapping: ScopeMapping | undefined): string | undefined {
  if (!mapping) return undefined;
  const abs = slashed(path.resolve(expandHome(folder)));
  const chain: string[] = [];
  for (let p = abs; ; p = path.posix.dirname(p)) {
    chain.push(p);
    if (path.posix.dirname(p) === p) break;
  }
  for (const [pattern, scope] of Object.entries(mapping)) {
    const re = globRegExp(slashed(path.resolve(expandHome(pattern))));
    if (chain.some((p) => re.test(p))) return mappedScope(scope);
  }
  return undefined;
}

/** The scope of the folder a session ran in, or a command runs in. */
export function scopeOfFolder(folder: string, mapping?: ScopeMapping): FolderScope {
  const abs = path.resolve(expandHome(folder));
  const repo = gitRepoOf(abs);
  const inRepo = repo !== undefined;
  const configured = configuredScope(abs, mapping);
  if (configured) return { scope: configured, from: 'config', inRepo };
  if (repo?.origin) return { scope: projectScope(repo.origin), from: 'origin', inRepo };
  if (repo) return { scope: projectScope(path.basename(repo.top)), from: 'repo', inRepo };
  // The file system's root has no name a scope could hold: it is no project.
  return { scope: path.basename(abs) ? projectScope(path.basename(abs)) : 'global', from: 'folder', inRepo };
}
