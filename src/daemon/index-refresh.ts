/**
 * Keeps the search index fresh while the daemon runs (DESIGN §6, §7): the one file watcher
 * (workspace/watch-markdown.ts) on the indexed Markdown asks for an index run `debounceMs` after the
 * last change, and a periodic timer asks every `refreshMs` as a safety net for events a file system
 * never delivered (or all of them, once native watching failed: too many files or watches).
 */
import path from 'node:path';
import { tierRoots } from '../search/index/scan.js';
import { watchMarkdown } from '../workspace/watch-markdown.js';

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
  const extra = roots.cold.slice(1);
  const watcher = watchMarkdown({
    roots: [path.join(workspace, 'MEMORY.md'), ...roots.warm, ...extra],
    inside: [workspace, ...extra],
    debounceMs: Math.max(1, debounceMs),
    onChange: request,
  });
  const periodic = refreshMs > 0 ? setInterval(request, refreshMs) : undefined;
  return {
    async close() {
      if (periodic) clearInterval(periodic);
      watcher.close();
    },
  };
}
