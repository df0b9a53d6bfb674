/**
 * `mem archive --rebuild`, and the first `mem archive` of a workspace (both read every transcript),
 * run in a worker thread with a capped heap (worker_threads `resourceLimits`). The build holds one
 * segment (at most SEGMENT_CHARS of window text, update.ts) and streams the rest, so its live heap
 * does not grow with the volume; but V8 lets a long run's heap grow to several times that before it
 * collects, so the peak RSS still grew with the run's length (139 → 200 MB from 20 to 200 MB of
 * transcripts, when segments were streamed to disk).
 * V8 grows a heap whose cap is at most 256 MB by the smallest factor (1.3× the live heap, not up to
 * 4×): in such a worker the heap stays near its live size whatever the volume, and the cap itself is
 * far above what the build needs.
 * A cap is not a budget, and a worker that reaches it can take the whole process down (Node gives it
 * 16 MB of leeway to stop): so the worker is used only when no input can come near it (fitsWorker:
 * lines up to 16 MB, Markdown transcripts up to 16 MB, since one turn may be all of one; a 30 MB
 * turn was measured to fit). If the worker still runs out of heap (ERR_WORKER_OUT_OF_MEMORY), this
 * returns undefined and the caller runs the update again in the main thread, uncapped, as before.
 * The caller holds the lock; the worker writes through its own writer, told by message when the
 * lock is lost, and posts progress lines.
 */
import fs from 'node:fs';
import { distFile } from '../core/package-root.js';
import type { LoadedConfig } from '../config/load.js';
import { MemError, type MemErrorCode } from '../core/errors.js';
import { testHook } from '../core/test-hooks.js';
import { listTranscriptFiles } from '../transcripts/index.js';
import type { HeldLock } from '../write/locks.js';

const WORKER_FILE = distFile('archive/update-worker.js');
/** The worker's old generation, MB: the most for which V8 still grows the heap by its smallest factor. */
export const WORKER_OLD_MB = 256;
/** The longest line (maxLineBytes) and the biggest Markdown transcript a worker is given. */
const WORKER_INPUT_BYTES = 16 * 1024 * 1024;
/** Its young generation (two semi-spaces of 8 MB and their overflow), MB: V8's default lets it reach 48. */
const WORKER_YOUNG_MB = 24;

export interface WorkerInput {
  workspace: string;
  loaded: LoadedConfig;
  rebuild: boolean;
  warnNotText: boolean;
  progress: boolean;
}

/** A failure as the CLI reads it: a MemError's code, or an errno's fields (describeError words ENOTDIR, EACCES, ... from them). */
export interface Failure {
  message: string;
  memCode?: MemErrorCode;
  errno?: { code: string; path?: string; syscall?: string; errno?: number };
}

export type WorkerMessage =
  { type: 'progress'; msg: string } | { type: 'done'; result: unknown } | ({ type: 'failed' } & Failure);
export type MainMessage = { type: 'lock-lost'; message: string };

/** The worker is there (a build from src run by tsx has no .js beside this file: the caller runs in-thread). */
export const workerAvailable = () => fs.existsSync(WORKER_FILE);

/** Whether every input surely fits the worker's heap: maxLineBytes and each Markdown transcript at most WORKER_INPUT_BYTES. */
export async function fitsWorker(workspace: string, loaded: LoadedConfig): Promise<boolean> {
  if (loaded.config.limits.maxLineBytes > WORKER_INPUT_BYTES) return false;
  for (const source of loaded.config.sources) {
    if (source.kind !== 'markdown') continue;
    for (const file of await listTranscriptFiles(source.kind, source.path, workspace).catch(() => [] as string[])) {
      if (((await fs.promises.stat(file).catch(() => undefined))?.size ?? 0) > WORKER_INPUT_BYTES) return false;
    }
  }
  return true;
}

/** The worker's heap cap, MB (a test hook makes it tiny, to prove the fallback). */
export const workerHeapMb = () => Number(testHook('MEM_ARCHIVE_WORKER_HEAP_MB')) || WORKER_OLD_MB;

/** An error thrown in the worker, for the main thread to throw again as it was. */
export function failure(err: unknown): Failure {
  if (err instanceof MemError) return { message: err.message, memCode: err.code };
  const e = err as NodeJS.ErrnoException | undefined;
  const message = err instanceof Error ? err.message : String(err);
  if (typeof e?.code !== 'string') return { message };
  return {
    message,
    errno: {
      code: e.code,
      ...(e.path ? { path: e.path } : {}),
      ...(e.syscall ? { syscall: e.syscall } : {}),
      ...(e.errno !== undefined ? { errno: e.errno } : {}),
    },
  };
}

/** The update's result from the worker; undefined when the worker ran out of heap. Its errors are thrown here as they were there. */
export async function runInWorker<R>(
  input: WorkerInput,
  lock: HeldLock,
  progress?: (msg: string) => void,
): Promise<R | undefined> {
  const { Worker } = await import('node:worker_threads');
  const worker = new Worker(WORKER_FILE, {
    workerData: input,
    resourceLimits: { maxOldGenerationSizeMb: workerHeapMb(), maxYoungGenerationSizeMb: WORKER_YOUNG_MB },
  });
  let told = false;
  const watch = setInterval(() => {
    if (!lock.compromised || told) return;
    told = true;
    worker.postMessage({ type: 'lock-lost', message: lock.compromised.message } satisfies MainMessage);
  }, 200);
  try {
    return await new Promise<R | undefined>((resolve, reject) => {
      worker.on('message', (m: WorkerMessage) => {
        if (m.type === 'progress') progress?.(m.msg);
        else if (m.type === 'done') resolve(m.result as R);
        else
          reject(m.memCode ? new MemError(m.memCode, m.message) : Object.assign(new Error(m.message), m.errno ?? {}));
      });
      worker.on('error', (err: NodeJS.ErrnoException) =>
        err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? resolve(undefined) : reject(err),
      );
      worker.on('exit', (code) =>
        reject(new Error(`the archive worker thread stopped (exit ${code}) before it finished`)),
      );
    });
  } finally {
    clearInterval(watch);
    await worker.terminate();
  }
}
