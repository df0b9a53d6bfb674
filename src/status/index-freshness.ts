/**
 * Index freshness for `mem status`, read-only and independent of the index format: the last update
 * is the newest file under `.mem/index/`, and a Markdown file of an indexed tier modified after it is
 * dirty (the next `mem index`, the daemon or `mem watch` picks it up).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config/schema.js';
import type { JobLogLine } from '../runlog/job-log-read.js';

export const INDEX_DIR = '.mem/index';

export interface IndexStatus {
  exists: boolean;
  lastUpdate: string | null;
  dirtyFiles: number;
  dirty: string[];
  lastRun: JobLogLine | null;
}

/** A folder's entries, or none when it is missing or unreadable (status reports; it never fails on a folder). */
function entries(dir: string): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

function newestMtime(dir: string): number {
  let newest = 0;
  const walk = (d: string) => {
    for (const e of entries(d)) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) walk(full);
      else newest = Math.max(newest, fs.statSync(full, { throwIfNoEntry: false })?.mtimeMs ?? 0);
    }
  };
  walk(dir);
  return newest;
}

/** `memory`: memory/'s files as status listed them (entries/heads-files.ts), so memory/ is not listed twice. */
function indexedMarkdown(workspace: string, config: Config, memory: readonly string[] | undefined): string[] {
  const out: string[] = [];
  const walk = (abs: string, rel: string) => {
    for (const e of entries(abs)) {
      if (e.name.startsWith('.')) continue;
      const r = `${rel}/${e.name}`;
      if (e.isDirectory()) walk(path.join(abs, e.name), r);
      else if (e.name.endsWith('.md')) out.push(r);
    }
  };
  if (fs.existsSync(path.join(workspace, 'MEMORY.md'))) out.push('MEMORY.md');
  if (memory) out.push(...memory);
  else walk(path.join(workspace, 'memory'), 'memory');
  for (const extra of config.extraPaths) walk(path.resolve(workspace, extra), extra.replace(/\/+$/, ''));
  return out;
}

/**
 * `stated`: mtimes already read (workspace-relative path → mtimeMs: status's listing of memory/), so
 * those files are not stated twice; `memory`: that listing's paths, so memory/ is not listed again
 * (what it leaves out, a FIFO or a link out of the workspace, the index leaves out too: never dirty).
 */
export function indexFreshness(
  workspace: string,
  config: Config,
  lastRun: JobLogLine | null,
  stated: ReadonlyMap<string, number> = new Map(),
  memory?: readonly string[],
): IndexStatus {
  const dir = path.join(workspace, INDEX_DIR);
  const exists = fs.existsSync(dir);
  const updated = exists ? newestMtime(dir) : 0;
  const dirty = indexedMarkdown(workspace, config, memory).filter((rel) => {
    try {
      return (stated.get(rel) ?? fs.statSync(path.resolve(workspace, rel)).mtimeMs) > updated;
    } catch {
      return false;
    }
  });
  return {
    exists,
    lastUpdate: updated ? new Date(updated).toISOString() : null,
    dirtyFiles: dirty.length,
    dirty: dirty.slice(0, 20),
    lastRun,
  };
}
