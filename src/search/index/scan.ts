/**
 * Which files each tier holds (DESIGN §6) and their size, mtime and ctime: warm is MEMORY.md and memory/**
 * except memory/archive/**; cold is memory/archive/** and the configured extraPaths. Only `.md`
 * files count; lock folders, memfold's temp files and `.mem/` are never indexed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isLink, outsideTarget, warnOutsideLink } from '../../core/outside-link.js';
import { regularFile } from '../../core/regular-file.js';
import { quickStat } from './quick-stat.js';
import type { Tier } from '../text/types.js';

export interface ScannedFile {
  /** Key in the manifest: workspace-relative with `/`, or absolute outside the workspace. */
  path: string;
  abs: string;
  tier: Tier;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

/** A listed file as the scan and the search server's tracked list (server/files.ts) record it. */
export function scannedFile(key: string, abs: string, st: fs.Stats): ScannedFile {
  return { path: key, abs, tier: tierOf(key), size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs };
}

/**
 * Collects the regular `.md` files under `dir` (links to files followed, links to folders not: no
 * loops). Hot at 10,000 files, so per name it does what it must and no more: a `.md` name is
 * stat'ed once (which tells a file, as regularFile does; quick-stat.ts, no Stats object kept); whether
 * it is a link, and whether any other name is a folder, comes from the listing's own file types
 * (readdir's d_type; Node lstat's a name itself where the file system gives none). An lstat per file
 * doubled the system calls: listing and stating 7,000 files took twice as long with it.
 */
function walk(dir: string, key: string | null, out: ScannedFile[], skip?: string, roots: string[] = []): void {
  let names: fs.Dirent[];
  try {
    names = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  const absPrefix = dir + path.sep;
  const keyPrefix = key === null ? absPrefix : key ? `${key}/` : '';
  // A folder's files share its tier, except at the workspace's root (MEMORY.md is warm).
  const folderTier = keyPrefix ? tierOf(`${keyPrefix}_`) : undefined;
  for (const d of names) {
    const name = d.name;
    if (name.startsWith('.')) continue;
    const abs = absPrefix + name;
    if (name.endsWith('.md')) {
      const st = quickStat(abs);
      if (st?.kind === 'file') {
        const k = keyPrefix + name;
        const outside = roots.length && d.isSymbolicLink() ? outsideTarget(abs, roots) : undefined;
        if (outside) {
          warnOutsideLink(k, outside);
          continue;
        }
        out.push({
          path: k,
          abs,
          tier: folderTier ?? tierOf(k),
          size: st.size,
          mtimeMs: st.mtimeMs,
          ctimeMs: st.ctimeMs,
        });
        continue;
      }
      // A FIFO, socket or device; gone, dangling or a loop: nothing to read. A folder named *.md is walked.
      if (st?.kind !== 'folder') continue;
    }
    const k = key === null ? abs : keyPrefix + name;
    if (k !== skip && d.isDirectory()) walk(abs, k, out, skip, roots);
  }
}

export function keyOf(workspace: string, abs: string): string {
  const rel = path.relative(workspace, abs);
  return rel.startsWith('..') || path.isAbsolute(rel) ? abs : rel.split(path.sep).join('/');
}

export function tierOf(key: string): Tier {
  return key === 'MEMORY.md' || (key.startsWith('memory/') && !key.startsWith('memory/archive/')) ? 'warm' : 'cold';
}

/** The folders a tier's files come from (for watchers and for the search-time freshness check). */
export function tierRoots(workspace: string, extraPaths: string[]): { warm: string[]; cold: string[] } {
  const extra = extraPaths.map((p) =>
    path.resolve(workspace, p.startsWith('~/') ? path.join(process.env.HOME ?? '', p.slice(2)) : p),
  );
  return { warm: [path.join(workspace, 'memory')], cold: [path.join(workspace, 'memory', 'archive'), ...extra] };
}

/** Files of both tiers, or of one (`memory/` is walked for either: the archive lives inside it), in key order. */
export function scanWorkspace(workspace: string, extraPaths: string[], only?: Tier): ScannedFile[] {
  const found: ScannedFile[] = [];
  const memoryFile = path.join(workspace, 'MEMORY.md');
  const roots = tierRoots(workspace, extraPaths);
  // Links are followed only into the workspace and the extra paths (core/outside-link.ts).
  const inside = [workspace, ...roots.cold.slice(1)];
  const memoryOutside = isLink(memoryFile) ? outsideTarget(memoryFile, inside) : undefined;
  if (memoryOutside) warnOutsideLink('MEMORY.md', memoryOutside);
  const st = only === 'cold' || memoryOutside ? undefined : regularFile(memoryFile);
  if (st) found.push(scannedFile('MEMORY.md', memoryFile, st));
  const walkRoots =
    only === 'warm' ? [roots.warm[0]!] : only === 'cold' ? roots.cold : [roots.warm[0]!, ...roots.cold.slice(1)];
  for (const r of walkRoots) {
    const k = keyOf(workspace, r);
    // The warm tier never descends into memory/archive (the cold tier's): no need to list it.
    walk(r, path.isAbsolute(k) ? null : k, found, only === 'warm' ? 'memory/archive' : undefined, inside);
  }
  // Overlapping roots (an extra path inside memory/, or inside another) list a file twice: once is kept.
  const byKey = new Map<string, ScannedFile>();
  for (const f of found) if (!byKey.has(f.path) && (!only || f.tier === only)) byKey.set(f.path, f);
  // The default sort (UTF-16 code units, as `<` compares) runs natively; a comparator costs more.
  return [...byKey.keys()].sort().map((key) => byKey.get(key)!);
}
