/**
 * Which files each tier holds (DESIGN §6) and their size, mtime and ctime: warm is MEMORY.md and memory/**
 * except memory/archive/**; cold is memory/archive/** and the configured extraPaths. Only `.md`
 * files count; lock folders, memfold's temp files and `.mem/` are never indexed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { regularFile } from '../core/regular-file.js';
import type { Tier } from './types.js';

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

/** Collects absolute paths and keys of `.md` files, in two lists (this is hot: no pair per file). */
function walk(dir: string, key: string | null, abs: string[], keys: string[], skip?: string): void {
  let names: fs.Dirent[];
  try {
    names = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const d of names) {
    if (d.name.startsWith('.')) continue;
    const full = dir + path.sep + d.name;
    const k = key === null ? full : key ? `${key}/${d.name}` : d.name;
    if (d.isDirectory()) {
      if (k !== skip) walk(full, k, abs, keys, skip);
    } else if ((d.isFile() || d.isSymbolicLink()) && d.name.endsWith('.md')) {
      abs.push(full);
      keys.push(k);
    }
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
  const extra = extraPaths.map((p) => path.resolve(workspace, p.startsWith('~/') ? path.join(process.env.HOME ?? '', p.slice(2)) : p));
  return { warm: [path.join(workspace, 'memory')], cold: [path.join(workspace, 'memory', 'archive'), ...extra] };
}

/** Files of both tiers, or of one (`memory/` is walked for either: the archive lives inside it), in key order. */
export function scanWorkspace(workspace: string, extraPaths: string[], only?: Tier): ScannedFile[] {
  const abs: string[] = [];
  const keys: string[] = [];
  const memoryFile = path.join(workspace, 'MEMORY.md');
  if (only !== 'cold' && fs.existsSync(memoryFile)) {
    abs.push(memoryFile);
    keys.push('MEMORY.md');
  }
  const roots = tierRoots(workspace, extraPaths);
  const walkRoots = only === 'warm' ? [roots.warm[0]!] : only === 'cold' ? roots.cold : [roots.warm[0]!, ...roots.cold.slice(1)];
  for (const r of walkRoots) {
    const k = keyOf(workspace, r);
    // The warm tier never descends into memory/archive (the cold tier's): no need to list it.
    walk(r, path.isAbsolute(k) ? null : k, abs, keys, only === 'warm' ? 'memory/archive' : undefined);
  }
  const byKey = new Map<string, ScannedFile>();
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (byKey.has(key) || (only && tierOf(key) !== only)) continue;
    const st = regularFile(abs[i]!);
    if (st) byKey.set(key, scannedFile(key, abs[i]!, st));
  }
  // The default sort (UTF-16 code units, as `<` compares) runs natively; a comparator costs more.
  return [...byKey.keys()].sort().map((key) => byKey.get(key)!);
}
