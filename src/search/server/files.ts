/**
 * The server's view of which Markdown files each tier holds, kept current without scanning the whole
 * workspace per query. Invariant: after `current()` the list equals what scanWorkspace would return
 * now, for every change the OS reported. The one file watcher (workspace/watch-markdown.ts; fs.watch per
 * folder, measured lighter than chokidar for a resident process) reports each path as its event
 * arrives; the path is re-stat'ed at the next query: a `.md` file is updated, added or dropped; a folder
 * made, moved or removed means a full rescan. A query arriving right after an edit sees it: the edit's
 * event was queued before the client even started, and the server yields once to the event loop before
 * answering. If watching fails (EMFILE, ENOSPC: too many files or watches) the tracker goes blind and
 * rescans on every query: slower, never stale. A rescan every minute, between queries, catches what a
 * file system never reported (symlink targets, network folders).
 */
import fs from 'node:fs';
import path from 'node:path';
import { watchMarkdown, type MarkdownWatch } from '../../workspace/watch-markdown.js';
import { sameStat } from '../index/files-stamp.js';
import { keyOf, scannedFile, scanWorkspace, tierRoots, type ScannedFile } from '../index/scan.js';
import type { Tier } from '../text/types.js';
import type { StatedMemoryFile } from '../../entries/heads-files.js';

const RESCAN_EVERY_MS = 60_000;

export class FileTracker {
  private files = new Map<string, ScannedFile>();
  private sorted = new Map<Tier, ScannedFile[]>();
  private dirty = new Set<string>();
  private rescan = true;
  private blind = false;
  private watch: MarkdownWatch | undefined;
  private timer: NodeJS.Timeout;
  /** Bumped whenever the file list changes: caches keyed by it stay valid while it holds. */
  version = 0;

  constructor(
    private readonly workspace: string,
    private readonly extraPaths: string[],
  ) {
    // In the background, so no query pays for it (the scan is synchronous: never mid-query).
    this.timer = setInterval(() => {
      this.rescan = true;
      this.refresh();
    }, RESCAN_EVERY_MS);
    this.timer.unref();
  }

  /** Watches the tiers' roots (at the first query: a server nobody asks costs nothing), else walks them again. */
  private syncWatch(): void {
    if (this.blind) return;
    if (this.watch) return this.watch.sync();
    const roots = tierRoots(this.workspace, this.extraPaths);
    const extra = roots.cold.slice(1);
    this.watch = watchMarkdown({
      roots: [path.join(this.workspace, 'MEMORY.md'), roots.warm[0]!, ...extra],
      inside: [this.workspace, ...extra],
      persistent: false,
      onChange: (paths) => paths.forEach((p) => this.dirty.add(p)),
      onFail: () => (this.blind = true),
    });
  }

  private fullScan(): void {
    const next = new Map<string, ScannedFile>();
    for (const f of scanWorkspace(this.workspace, this.extraPaths)) next.set(f.abs, f);
    if (!sameFiles(this.files, next)) {
      this.files = next;
      this.sorted.clear();
      this.version++;
    }
  }

  private restat(abs: string): void {
    let st: fs.Stats | undefined;
    try {
      st = fs.statSync(abs, { throwIfNoEntry: false });
    } catch {
      st = undefined; // a link loop (ELOOP) and the like: nothing to read, as scanWorkspace leaves it out
    }
    const prev = this.files.get(abs);
    // A folder made, moved or removed (or a file never listed gone: perhaps a folder named *.md): walk again.
    if (st?.isDirectory() || !abs.endsWith('.md') || (!st && !prev)) {
      this.rescan = true;
      return;
    }
    if (!st?.isFile()) {
      if (prev) {
        this.files.delete(abs);
        this.sorted.clear();
        this.version++;
      }
      return;
    }
    if (prev && sameStat(prev, st)) return;
    this.files.set(abs, scannedFile(keyOf(this.workspace, abs), abs, st));
    this.sorted.clear();
    this.version++;
  }

  /** Brings the list up to date (cheap when nothing was reported). */
  refresh(): void {
    if (this.rescan || this.blind) {
      this.rescan = false;
      // Watching first: a change made during the scan is reported, never lost.
      this.syncWatch();
      this.dirty.clear();
      this.fullScan();
      return;
    }
    if (!this.dirty.size) return;
    const paths = [...this.dirty];
    this.dirty.clear();
    for (const p of paths) this.restat(p);
    if (this.rescan) this.refresh();
  }

  /** The files of one tier, sorted by key as scanWorkspace sorts them. */
  current(tier: Tier): ScannedFile[] {
    let list = this.sorted.get(tier);
    if (!list) {
      list = [...this.files.values()]
        .filter((f) => f.tier === tier)
        .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      this.sorted.set(tier, list);
    }
    return list;
  }

  /**
   * memory/'s Markdown files (memory/archive/ too, which the cold tier holds), sorted by path as
   * entries/heads-files.ts lists them, with the stats they were tracked at: what a context read would
   * state one by one (claim.ts ServerOptions.context).
   */
  memoryFiles(): StatedMemoryFile[] {
    return [...this.current('warm'), ...this.current('cold')]
      .filter((f) => f.path.startsWith('memory/'))
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
      .map((f) => ({ file: f.path, size: f.size, mtimeMs: f.mtimeMs, ctimeMs: f.ctimeMs }));
  }

  get watching(): boolean {
    return !this.blind;
  }

  close(): void {
    clearInterval(this.timer);
    this.blind = true;
    this.watch?.close();
  }
}

function sameFiles(a: Map<string, ScannedFile>, b: Map<string, ScannedFile>): boolean {
  if (a.size !== b.size) return false;
  for (const [k, f] of b) {
    const p = a.get(k);
    if (!p || !sameStat(p, f) || p.path !== f.path) return false;
  }
  return true;
}
