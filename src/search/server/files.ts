/**
 * The server's view of which Markdown files each tier holds, kept current without scanning the whole
 * workspace per query. Invariant: after `current()` the list equals what scanWorkspace would return
 * now, for every change the OS reported. Directories are watched one by one (fs.watch, not
 * recursive: portable); an event on a name marks that path to re-stat at the next query: a `.md`
 * file is updated, added or dropped; a folder made, moved or removed means a full rescan. A query
 * arriving right after an edit sees it: the edit's event was queued before the client even started,
 * and the server yields once to the event loop before answering. If watching fails (EMFILE, ENOSPC: too many files or
 * watches) the tracker goes blind and rescans on every query: slower, never stale. A rescan every
 * minute, between queries, catches what a file system never reported (symlink targets, network
 * folders).
 */
import fs from 'node:fs';
import path from 'node:path';
import { sameStat } from '../index/files-stamp.js';
import { keyOf, scannedFile, scanWorkspace, tierRoots, type ScannedFile } from '../index/scan.js';
import type { Tier } from '../text/types.js';

const RESCAN_EVERY_MS = 60_000;

export class FileTracker {
  private files = new Map<string, ScannedFile>();
  private sorted = new Map<Tier, ScannedFile[]>();
  private dirty = new Set<string>();
  private rescan = true;
  private blind = false;
  private watchers = new Map<string, fs.FSWatcher>();
  private timer: NodeJS.Timeout;
  /** Bumped whenever the file list changes: caches keyed by it stay valid while it holds. */
  version = 0;
  /** An extra path is the workspace itself: every name at its top may be a tier file or hold some. */
  private readonly rootWalked: boolean;

  constructor(
    private readonly workspace: string,
    private readonly extraPaths: string[],
  ) {
    this.rootWalked = tierRoots(workspace, extraPaths)
      .cold.slice(1)
      .some((r) => path.relative(workspace, r) === '');
    // In the background, so no query pays for it (the scan is synchronous: never mid-query).
    this.timer = setInterval(() => {
      this.rescan = true;
      this.refresh();
    }, RESCAN_EVERY_MS);
    this.timer.unref();
  }

  private dirsToWatch(): string[] {
    const roots = tierRoots(this.workspace, this.extraPaths);
    const dirs = [this.workspace];
    const walk = (dir: string) => {
      let names: fs.Dirent[];
      try {
        names = fs.readdirSync(dir, { withFileTypes: true });
      } catch {
        return;
      }
      dirs.push(dir);
      for (const d of names) if (d.isDirectory() && !d.name.startsWith('.')) walk(path.join(dir, d.name));
    };
    for (const r of [roots.warm[0]!, ...roots.cold.slice(1)]) walk(r);
    return dirs;
  }

  private syncWatchers(): void {
    if (this.blind) return;
    const want = new Set(this.dirsToWatch());
    for (const [dir, w] of this.watchers) {
      if (!want.has(dir)) {
        w.close();
        this.watchers.delete(dir);
      }
    }
    for (const dir of want) {
      if (this.watchers.has(dir)) continue;
      try {
        const w = fs.watch(dir, { persistent: false }, (_event, name) =>
          this.onEvent(dir, name === null ? null : String(name)),
        );
        w.on('error', () => {
          // The folder went away (a rescan drops it) or the watch broke: rescan at the next query.
          this.rescan = true;
          w.close();
          this.watchers.delete(dir);
        });
        this.watchers.set(dir, w);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR') continue;
        this.goBlind();
        return;
      }
    }
  }

  private goBlind(): void {
    this.blind = true;
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
  }

  private onEvent(dir: string, name: string | null): void {
    if (!name || name.includes('/') || name.includes(path.sep)) {
      this.rescan = true;
      return;
    }
    if (name.startsWith('.')) return; // dot-folders, editors' and memfold's temp files: never indexed
    if (dir !== this.workspace || name === 'MEMORY.md' || this.rootWalked) this.dirty.add(path.join(dir, name));
    else if (this.rootNames.has(name)) this.rescan = true; // memory/ or an extra path's folder came or went
  }

  /** Top-level names in the workspace under which tier files live (memory, extra paths' first folders). */
  private get rootNames(): Set<string> {
    const names = new Set(['memory']);
    for (const r of tierRoots(this.workspace, this.extraPaths).cold.slice(1)) {
      const rel = path.relative(this.workspace, r);
      if (rel && !rel.startsWith('..') && !path.isAbsolute(rel)) names.add(rel.split(path.sep)[0]!);
    }
    return names;
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
    // A folder made, or a watched one removed or renamed: walk again.
    if (st?.isDirectory() || (!st && this.watchers.has(abs))) {
      this.rescan = true;
      return;
    }
    const prev = this.files.get(abs);
    if (!st?.isFile() || !abs.endsWith('.md')) {
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
      this.dirty.clear();
      this.fullScan();
      this.syncWatchers();
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

  get watching(): boolean {
    return !this.blind;
  }

  close(): void {
    clearInterval(this.timer);
    this.goBlind();
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
