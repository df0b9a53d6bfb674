/**
 * The one file watcher (`mem watch`, the daemon's index refresh, the search server's file list): reports
 * which Markdown paths of a set of roots may have changed. Invariant: every `.md` file a scan of the roots
 * would list (search/index/scan.ts: no dot-names, links to folders not followed, links to files only
 * inside `inside`) has its creation, edit, rename (an editor's atomic save too) and removal reported, and
 * so has every folder made, moved or removed under a root, or a root appearing or going; nothing else is.
 * Folders are watched one by one (fs.watch, not recursive: portable), a new sub-folder as its event
 * arrives; a root's parent is watched for the root's own name, so a missing root is picked up when made.
 * Not chokidar: it stats and watches every file, which cost the resident server 12-14 MB and one inotify
 * watch per file at 1,000 files (issue 30). When native watching fails (EMFILE, ENOSPC: too many files or
 * watches) every watch is closed; with `pollMs` the roots are then walked every `pollMs` and compared.
 */
import fs from 'node:fs';
import path from 'node:path';
import { outsideTarget } from '../core/outside-link.js';

export interface MarkdownWatchOptions {
  /** Files (MEMORY.md) and folders (each with its sub-folders) to watch; a missing one once made. */
  roots: string[];
  /** A link to a file is followed only when its target lies inside one of these. */
  inside: string[];
  /** Paths that may have changed: a `.md` file, or a folder made or gone (read it again). */
  onChange(paths: string[]): void;
  /** Calls onChange once, this long after the last change; without it, once per event as it arrives. */
  debounceMs?: number;
  /** Polls the roots every `pollMs` ms: from the start with `poll`, else once native watching fails. */
  pollMs?: number;
  poll?: boolean;
  /** Native watching failed with `code`; `polling`: the roots are polled from now on, else nothing is watched. */
  onFail?(code: string, polling: boolean): void;
  /** Keeps the process alive while watching (a command); the resident server's watches do not. */
  persistent?: boolean;
}

export interface MarkdownWatch {
  /** Walks the roots again and watches the folders found (the periodic safety net). */
  sync(): void;
  /** Test hook: behave as if native watching had failed with `code`. */
  fail(code: string): void;
  close(): void;
}

/** Error codes that mean native watching as a whole cannot go on (too many files or watches). */
const FATAL = ['EMFILE', 'ENFILE', 'ENOSPC', 'EPERM'];

export function watchMarkdown(o: MarkdownWatchOptions): MarkdownWatch {
  const roots = o.roots.map((r) => path.resolve(r));
  /** Folder watched → the names in it that matter ('all': every name, a folder of a tree). */
  const watches = new Map<string, { w: fs.FSWatcher; names: Set<string> | 'all'; ino?: number }>();
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let poller: NodeJS.Timeout | undefined;
  let snapshot = new Map<string, string>();
  let closed = false;

  const report = (abs: string) => {
    if (closed) return;
    if (!o.debounceMs) return o.onChange([abs]);
    pending.add(abs);
    clearTimeout(timer);
    timer = setTimeout(() => {
      const paths = [...pending];
      pending = new Set();
      o.onChange(paths);
    }, o.debounceMs);
    if (o.persistent === false) timer.unref();
  };

  /** The folders to watch now, each with the names that matter in it. */
  const wanted = (): Map<string, Set<string> | 'all'> => {
    const want = new Map<string, Set<string> | 'all'>();
    const name = (dir: string, n: string) => {
      const had = want.get(dir);
      if (had === 'all') return;
      if (had) had.add(n);
      else want.set(dir, new Set([n]));
    };
    const tree = (dir: string) => {
      want.set(dir, 'all');
      for (const d of list(dir)) if (d.isDirectory() && !d.name.startsWith('.')) tree(path.join(dir, d.name));
    };
    for (const r of roots) {
      // The root's own name in its parent (and up to the first folder that exists): made, moved or removed.
      for (let p = r; path.dirname(p) !== p; p = path.dirname(p)) {
        name(path.dirname(p), path.basename(p));
        if (isFolder(path.dirname(p))) break;
      }
      if (isFolder(r)) tree(r);
    }
    return want;
  };

  /** Watches the folders the roots hold now; `tell`: reports each folder of a tree it starts or stops watching. */
  const sync = (tell = true) => {
    if (closed || poller) return;
    const want = wanted();
    for (const [dir, { w, names }] of watches) {
      if (want.has(dir)) continue;
      w.close();
      watches.delete(dir);
      if (tell && names === 'all') report(dir);
    }
    for (const [dir, names] of want) {
      // A folder replaced by another of the same name (moved over it) is watched again: a watch follows the old one.
      const had = watches.get(dir);
      const ino = stat(dir)?.ino;
      if (had && had.ino === ino) {
        had.names = names;
        continue;
      }
      had?.w.close();
      let w: fs.FSWatcher;
      try {
        w = fs.watch(dir, { persistent: o.persistent !== false }, (_ev, n) =>
          onEvent(dir, n === null ? null : String(n)),
        );
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code ?? String(err);
        if (!FATAL.includes(code)) continue; // gone or not a folder since it was listed: its parent's event says so
        return fail(code);
      }
      w.on('error', (err: NodeJS.ErrnoException) => {
        // The folder went away or its watch broke: read it again (and its parent's event resyncs).
        if (FATAL.includes(err.code ?? '')) return fail(err.code!);
        w.close();
        if (watches.get(dir)?.w === w) watches.delete(dir);
        report(dir);
      });
      watches.set(dir, { w, names, ino });
      if (tell && names === 'all') report(dir);
    }
  };

  const onEvent = (dir: string, name: string | null) => {
    const entry = watches.get(dir);
    if (!entry || closed) return;
    if (name === null || name.includes('/') || name.includes(path.sep)) {
      sync();
      return report(dir);
    }
    if (entry.names === 'all' ? name.startsWith('.') : !entry.names.has(name)) return;
    const abs = path.join(dir, name);
    const st = lstat(abs);
    // A folder made, moved or removed (or replaced by a file): sync() reports each it starts or stops watching.
    if (st?.isDirectory() || (st?.isSymbolicLink() && roots.includes(abs)) || watches.has(abs)) return sync();
    if (!abs.endsWith('.md')) return;
    if (st?.isSymbolicLink() && outsideTarget(abs, o.inside)) return;
    report(abs);
  };

  /** Every `.md` file and folder the roots hold now, with a stamp that changes when it does. */
  const walk = (): Map<string, string> => {
    const seen = new Map<string, string>();
    const file = (abs: string) => {
      const st = stat(abs);
      if (st?.isFile() && !(lstat(abs)?.isSymbolicLink() && outsideTarget(abs, o.inside)))
        seen.set(abs, `${st.size}:${st.mtimeMs}:${st.ctimeMs}`);
    };
    const tree = (dir: string) => {
      seen.set(dir, 'folder');
      for (const d of list(dir)) {
        if (d.name.startsWith('.')) continue;
        const abs = path.join(dir, d.name);
        if (d.isDirectory()) tree(abs);
        else if (d.name.endsWith('.md')) file(abs);
      }
    };
    for (const r of roots) (isFolder(r) ? tree : file)(r);
    return seen;
  };
  const poll = () => {
    const next = walk();
    for (const [p, s] of next) if (snapshot.get(p) !== s) report(p);
    for (const p of snapshot.keys()) if (!next.has(p)) report(p);
    snapshot = next;
  };
  const startPolling = () => {
    snapshot = walk();
    poller = setInterval(poll, o.pollMs);
    if (o.persistent === false) poller.unref();
  };

  const fail = (code: string) => {
    if (closed || poller) return;
    for (const { w } of watches.values()) w.close();
    watches.clear();
    const polling = !!o.pollMs;
    o.onFail?.(code, polling);
    if (!polling) return;
    startPolling();
    // Events may have been lost before the failure: every root may have changed.
    for (const r of roots) report(r);
  };

  if (o.poll && o.pollMs) startPolling();
  else sync(false);
  return {
    sync: () => sync(),
    fail,
    close() {
      closed = true;
      clearTimeout(timer);
      clearInterval(poller);
      for (const { w } of watches.values()) w.close();
      watches.clear();
    },
  };
}

function list(dir: string): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

function stat(abs: string): fs.Stats | undefined {
  try {
    return fs.statSync(abs, { throwIfNoEntry: false });
  } catch {
    return undefined; // a link loop (ELOOP) and the like: nothing to read
  }
}

function lstat(abs: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(abs, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

const isFolder = (abs: string) => !!stat(abs)?.isDirectory();
