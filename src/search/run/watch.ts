/**
 * `mem watch`: a chokidar watcher on MEMORY.md, memory/ and the extra paths that debounces changes
 * and runs the incremental index (DESIGN §6). Only `.md` files matter; `.mem/`, lock folders and
 * memfold's temp files are ignored. When native file events fail (EMFILE, ENOSPC: too many files or
 * watches; or --poll for network folders) it restarts in polling mode and says so. stop() closes the
 * watcher and waits for a running update, so SIGINT/SIGTERM never cut an index write short.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { LoadedConfig } from '../../config/load.js';
import { describeError, exitCodeOf } from '../../core/errors.js';
import { appendIndexRun, triggerFromEnv } from '../../runlog/job-log.js';
import { isTempFile } from '../../write/atomic.js';
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
  const { watch } = await import('chokidar');
  const roots = tierRoots(workspace, loaded.config.extraPaths);
  const paths = [path.join(workspace, 'MEMORY.md'), ...roots.warm, ...roots.cold.slice(1)].filter((p) =>
    fs.existsSync(p),
  );
  const ignored = (p: string, st?: fs.Stats) => {
    const base = path.basename(p);
    if (p.split(path.sep).some((part) => part === '.mem' || part === '.locks' || part === '.git')) return true;
    if (isTempFile(base)) return true;
    return !!st?.isFile() && !base.endsWith('.md');
  };
  let timer: NodeJS.Timeout | undefined;
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
  const schedule = () => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => void update(), opts.debounceMs);
  };

  const open = (usePolling: boolean) => {
    const w = watch(paths, {
      ignored,
      ignoreInitial: true,
      usePolling,
      interval: opts.pollIntervalMs,
      binaryInterval: opts.pollIntervalMs,
    });
    w.on('all', (_event: string, p: string) => {
      if (p.endsWith('.md') || !path.extname(p)) schedule();
    });
    return w;
  };
  let watcher = open(opts.poll);
  const fallback = async (code: string) => {
    if (stopped) return;
    opts.onNote(
      `cannot watch with native file events (${code}); falling back to polling every ${opts.pollIntervalMs / 1000} s`,
    );
    await watcher.close();
    watcher = open(true);
    schedule();
  };
  watcher.on('error', (err: unknown) => {
    const code = (err as NodeJS.ErrnoException).code ?? String(err);
    if (['EMFILE', 'ENOSPC', 'ENFILE', 'EPERM'].includes(code)) void fallback(code);
    else opts.onNote(`watcher error: ${describeError(err)}`);
  });
  await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  if (opts.simulateError) await fallback(opts.simulateError);
  await update();

  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await watcher.close();
      await running;
    },
  };
}
