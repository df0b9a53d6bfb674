/**
 * `mem watch`: the one file watcher (workspace/watch-markdown.ts) on MEMORY.md, memory/ and the extra
 * paths, debounced, runs the incremental index (DESIGN §6). Only `.md` files and folders matter; `.mem/`,
 * lock folders and memfold's temp files (dot-names) never do. When native file events fail (EMFILE,
 * ENOSPC: too many files or watches; or --poll for network folders) it polls instead and says so.
 * stop() closes the watcher and waits for a running update, so SIGINT/SIGTERM never cut an index
 * write short.
 */
import path from 'node:path';
import type { LoadedConfig } from '../../config/load.js';
import { describeError, exitCodeOf } from '../../core/errors.js';
import { appendIndexRun, triggerFromEnv } from '../../runlog/job-log.js';
import { watchMarkdown } from '../../workspace/watch-markdown.js';
import { tierRoots } from '../index/scan.js';
import { runIndex, type IndexRun } from './update.js';

export interface WatchOptions {
  debounceMs: number;
  poll: boolean;
  pollIntervalMs: number;
  onRun(run: IndexRun): void;
  onNote(text: string): void;
  /** Test hook: pretend native watching failed with this error code. */
  simulateError?: string;
}

export interface Watching {
  stop(): Promise<void>;
}

export async function startWatch(workspace: string, loaded: LoadedConfig, opts: WatchOptions): Promise<Watching> {
  const roots = tierRoots(workspace, loaded.config.extraPaths);
  const extra = roots.cold.slice(1);
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;

  const update = async () => {
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        const start = new Date();
        let run: IndexRun | undefined;
        let failure: { exitCode: number; message: string } | undefined;
        try {
          run = await runIndex(workspace, loaded, { governance: true });
        } catch (err) {
          failure = { exitCode: exitCodeOf(err), message: describeError(err) };
        }
        // Each run is in the job log, as a `mem index` run is (docs/operations.md).
        const logged = await appendIndexRun(
          workspace,
          loaded.config.limits.jobLogBytes,
          { trigger: triggerFromEnv(), pid: process.pid, start, end: new Date() },
          failure,
        );
        if (logged) opts.onNote(logged);
        if (run) opts.onRun(run);
        else opts.onNote(`index update failed: ${failure!.message}; will retry on the next change`);
      } while (again && !stopped);
    })();
    await running;
    running = undefined;
  };
  const watcher = watchMarkdown({
    roots: [path.join(workspace, 'MEMORY.md'), ...roots.warm, ...extra],
    inside: [workspace, ...extra],
    debounceMs: Math.max(1, opts.debounceMs),
    poll: opts.poll,
    pollMs: opts.pollIntervalMs,
    persistent: true,
    onChange: () => void update(),
    onFail: (code) =>
      opts.onNote(
        `cannot watch with native file events (${code}); falling back to polling every ${opts.pollIntervalMs / 1000} s`,
      ),
  });
  if (opts.simulateError) watcher.fail(opts.simulateError);
  await update();

  return {
    stop: async () => {
      stopped = true;
      watcher.close();
      await running;
    },
  };
}
