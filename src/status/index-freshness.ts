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
/** How many dirty files status names. */
const DIRTY_LISTED = 20;

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

/**
 * Visits every Markdown file of an indexed tier in the index's order: MEMORY.md, memory/ (as status
 * listed it, entries/heads-files.ts, with the mtime that listing read, so memory/ is neither listed
 * nor stated twice), then the extra paths.
 */
function indexedMarkdown(
  workspace: string,
  config: Config,
  memory: ReadonlyArray<{ file: string; mtimeMs: number }> | undefined,
  visit: (rel: string, mtimeMs?: number) => void,
): void {
  const walk = (abs: string, rel: string) => {
    for (const e of entries(abs)) {
      if (e.name.startsWith('.')) continue;
      const r = `${rel}/${e.name}`;
      if (e.isDirectory()) walk(path.join(abs, e.name), r);
      else if (e.name.endsWith('.md')) visit(r);
    }
  };
  if (fs.existsSync(path.join(workspace, 'MEMORY.md'))) visit('MEMORY.md');
  if (memory) for (const f of memory) visit(f.file, f.mtimeMs);
  else walk(path.join(workspace, 'memory'), 'memory');
  for (const extra of config.extraPaths) walk(path.resolve(workspace, extra), extra.replace(/\/+$/, ''));
}

/**
 * `memory`: status's listing of memory/ (what it leaves out, a FIFO or a link out of the workspace, the
 * index leaves out too: never dirty); `stated`: other mtimes already read (workspace-relative path →
 * mtimeMs: the summaries'), so those files are not stated twice. No map or list of every file is made:
 * 10,000 of them were garbage a status paid to collect.
 */
export function indexFreshness(
  workspace: string,
  config: Config,
  lastRun: JobLogLine | null,
  memory?: ReadonlyArray<{ file: string; mtimeMs: number }>,
  stated: ReadonlyMap<string, number> = new Map(),
): IndexStatus {
  const dir = path.join(workspace, INDEX_DIR);
  const exists = fs.existsSync(dir);
  const updated = exists ? newestMtime(dir) : 0;
  const dirty: string[] = [];
  let dirtyFiles = 0;
  indexedMarkdown(workspace, config, memory, (rel, known) => {
    let mtimeMs: number | undefined;
    try {
      mtimeMs = known ?? stated.get(rel) ?? fs.statSync(path.resolve(workspace, rel)).mtimeMs;
    } catch {
      return;
    }
    if (mtimeMs !== undefined && mtimeMs > updated && dirtyFiles++ < DIRTY_LISTED) dirty.push(rel);
  });
  return {
    exists,
    lastUpdate: updated ? new Date(updated).toISOString() : null,
    dirtyFiles,
    dirty,
    lastRun,
  };
}
