/**
 * Keeps the search index fresh while the daemon runs (DESIGN §6, §7): a chokidar watcher on the
 * indexed Markdown asks for an index run `debounceMs` after the last change, and a periodic timer
 * asks every `refreshMs` as a safety net for events a file system never delivered.
 */
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { tierRoots } from '../search/index/scan.js';

export interface IndexRefresh {
  close(): Promise<void>;
}

export function startIndexRefresh(
  workspace: string,
  extraPaths: string[],
  debounceMs: number,
  refreshMs: number,
  request: () => void,
): IndexRefresh {
  // The folders the index reads, as the indexer resolves them (`~/` is the home folder).
  const roots = tierRoots(workspace, extraPaths);
  const targets = [path.join(workspace, 'MEMORY.md'), ...roots.warm, ...roots.cold.slice(1)];
  const watcher: FSWatcher = watch(targets, {
    ignoreInitial: true,
    ignored: (p, stats) =>
      p.includes(`${path.sep}.locks`) || p.includes('.mem-tmp-') || (!!stats?.isFile() && !p.endsWith('.md')),
  });
  let timer: NodeJS.Timeout | undefined;
  const changed = () => {
    clearTimeout(timer);
    timer = setTimeout(request, debounceMs);
  };
  for (const ev of ['add', 'change', 'unlink'] as const) watcher.on(ev, changed);
  watcher.on('error', () => {}); // A vanished folder is not fatal; the periodic refresh still runs.
  const periodic = refreshMs > 0 ? setInterval(request, refreshMs) : undefined;
  return {
    async close() {
      clearTimeout(timer);
      if (periodic) clearInterval(periodic);
      await watcher.close();
    },
  };
}
