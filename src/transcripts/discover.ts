/**
 * Which files a configured source covers (DESIGN §4): `path` is a file, a directory searched
 * recursively for the kind's files, or a glob; `~` is the home folder, relative paths start at the
 * workspace. Returns sorted absolute paths, so runs see files in a stable order.
 *
 * Invariants: the walk never loops, and lists a file once even when links make it reachable twice
 * (preferring its real path); it skips node_modules and hidden files and folders below the starting
 * point, while a path that itself points into a hidden folder (`~/.claude/projects`) works; a missing
 * starting point is a SOURCE_MISSING error (an agent not installed yet: callers read the other
 * sources), an unreadable one SOURCE_UNREADABLE, each naming it; a deeper one is skipped.
 */
import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, join, relative, resolve, sep } from 'node:path';
import { MemError } from '../core/errors.js';
import { globToRegExp, hasGlob, splitGlob } from './glob.js';
import type { SourceKind } from './types.js';

const EXTENSIONS: Record<SourceKind, readonly string[]> = {
  'claude-code': ['.jsonl'],
  codex: ['.jsonl'],
  openclaw: ['.jsonl'],
  jsonl: ['.jsonl', '.ndjson'],
  markdown: ['.md', '.markdown'],
};
const MAX_DEPTH = 64;

export function expandHome(pattern: string): string {
  if (pattern === '~') return homedir();
  if (pattern.startsWith('~/') || pattern.startsWith('~\\')) return join(homedir(), pattern.slice(2));
  return pattern;
}

export async function listTranscriptFiles(kind: SourceKind, pattern: string, baseDir: string): Promise<string[]> {
  const absolute = resolve(baseDir, expandHome(pattern));
  const posix = absolute.split(sep).join('/');
  const isKindFile = (file: string) => EXTENSIONS[kind].some((ext) => file.toLowerCase().endsWith(ext));
  let files: string[];
  if (hasGlob(posix)) {
    const { base, glob } = splitGlob(posix);
    const root = resolve(base);
    await statSource(root, pattern);
    const re = globToRegExp(glob);
    files = (await walk(root)).filter((f) => isKindFile(f) && re.test(relative(root, f).split(sep).join('/')));
  } else {
    const info = await statSource(absolute, pattern);
    if (info.isFile()) return [absolute];
    files = (await walk(absolute)).filter(isKindFile);
    // Codex keeps other JSONL (history.jsonl) beside its sessions: prefer rollouts when there are any.
    const rollouts = files.filter((f) => basename(f).startsWith('rollout-'));
    if (kind === 'codex' && rollouts.length > 0) files = rollouts;
  }
  return files.sort();
}

async function statSource(path: string, pattern: string) {
  const named = path === pattern ? path : `${path} (from "${pattern}")`;
  try {
    const info = await stat(path);
    if (!info.isFile() && !info.isDirectory()) {
      throw new MemError('SOURCE_UNREADABLE', `source path is neither a file nor a directory: ${named}`);
    }
    return info;
  } catch (err) {
    if (err instanceof MemError) throw err;
    const why = reason(err);
    throw new MemError(
      why === 'not found' ? 'SOURCE_MISSING' : 'SOURCE_UNREADABLE',
      `cannot read source path ${named}: ${why}`,
      { cause: err },
    );
  }
}

function reason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return 'not found';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return code ?? String(err);
}

interface Dir {
  path: string;
  real: string;
  depth: number;
}

/**
 * All files below root, each transcript once: symlinks are resolved only after every real path was
 * seen, so a linked folder never shadows the real one and a loop ends at the first repeated folder.
 * Root's own read errors are fatal; deeper ones are skipped.
 */
async function walk(root: string): Promise<string[]> {
  const rootReal = await realpath(root);
  const seenDirs = new Set([rootReal]);
  const seenFiles = new Set<string>();
  const files: string[] = [];
  const queue: Dir[] = [{ path: root, real: rootReal, depth: 0 }];
  const links: Array<{ path: string; depth: number }> = [];
  const addFile = (path: string, real: string) => {
    if (!seenFiles.has(real)) {
      seenFiles.add(real);
      files.push(path);
    }
  };
  const addDir = (dir: Dir) => {
    if (dir.depth <= MAX_DEPTH && !seenDirs.has(dir.real)) {
      seenDirs.add(dir.real);
      queue.push(dir);
    }
  };
  while (queue.length > 0 || links.length > 0) {
    const dir = queue.pop();
    if (!dir) {
      for (const link of links.splice(0).sort((a, b) => (a.path < b.path ? -1 : 1))) {
        const real = await realpath(link.path).catch(() => null);
        const info = real === null ? null : await stat(real).catch(() => null);
        if (real === null || !info) continue; // broken link
        if (info.isFile()) addFile(link.path, real);
        if (info.isDirectory()) addDir({ path: link.path, real, depth: link.depth });
      }
      continue;
    }
    let entries: Dirent[];
    try {
      entries = await readdir(dir.path, { withFileTypes: true });
    } catch (err) {
      if (dir.path === root) {
        throw new MemError('SOURCE_UNREADABLE', `cannot list source directory ${root}: ${reason(err)}`, { cause: err });
      }
      continue;
    }
    for (const entry of entries) {
      // Hidden entries below the start are tool state or OS litter (macOS `._x.jsonl`), not transcripts.
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const path = join(dir.path, entry.name);
      const real = join(dir.real, entry.name);
      if (entry.isSymbolicLink()) links.push({ path, depth: dir.depth + 1 });
      else if (entry.isFile()) addFile(path, real);
      else if (entry.isDirectory()) addDir({ path, real, depth: dir.depth + 1 });
    }
  }
  return files;
}
