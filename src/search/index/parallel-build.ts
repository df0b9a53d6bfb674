/**
 * A rebuild of a tier spread over worker threads (index-worker.ts) that gives, byte for byte, the
 * segments of a one-thread build. Phase 1: the workers chunk the files (contiguous groups, no
 * tokens) and report each file's doc count; the segment boundaries then follow the one-thread rule
 * (a segment closes after the file that brings it to `flushDocs` docs), so every segment's first doc
 * id is known. Phase 2: the workers build the segments, whichever is free taking the next; the
 * caller receives them strictly in order. A file whose hash or doc count changed between the phases
 * (edited meanwhile) fails the build, and the caller builds in one thread instead.
 *
 * Only when asked (`MEM_INDEX_WORKERS=2`): on the project's two-core machine, shared with other
 * jobs, it did not pay. Two workers with free segment boundaries rebuilt 10,000 files in 0.7 of the
 * one-thread time in one series and no faster in others, for a quarter more CPU (and capped
 * common-term scores then depended on the boundaries); with the one-thread boundaries (this
 * module) the second chunking pass made it slower than one thread (18.5-23.7 s against
 * 15.0-21.3 s). Machines with idle cores may still gain.
 */
import fs from 'node:fs';
import { distFile } from '../../core/package-root.js';
import type { Worker } from 'node:worker_threads';
import type { FileBuilt, JobRequest, WorkerReply } from './index-worker.js';
import type { ScannedFile } from './scan.js';
import type { SegmentFiles } from './segment-format.js';
import type { Tier } from '../text/types.js';

/** Phase-1 groups per worker: small enough to keep both busy to the end. */
const COUNT_GROUPS_PER_WORKER = 4;

export interface BuiltGroup {
  files: ScannedFile[];
  built: FileBuilt[];
  first: number;
  count: number;
  /** Absent when the files gave no docs (skipped or empty files after the last full segment). */
  segment?: SegmentFiles;
  lenSum: [number, number, number];
}

const WORKER_FILE = distFile('search/index/index-worker.js');

/** Worker threads for building these files from scratch: `MEM_INDEX_WORKERS` (2-8), else 0 = in this thread. */
export function buildThreads(files: ScannedFile[]): number {
  const env = process.env.MEM_INDEX_WORKERS;
  const asked = env ? Math.max(0, Math.min(8, Number.parseInt(env, 10) || 0)) : 0;
  if (asked < 2 || !files.length) return 0;
  return fs.existsSync(WORKER_FILE) ? asked : 0;
}

/** A failure of the worker machinery (not of the index): the caller builds in one thread instead. */
export class ParallelBuildError extends Error {
  override name = 'ParallelBuildError';
}

/** Contiguous groups of about equal bytes, `count` of them at most. */
function byBytes(files: ScannedFile[], count: number): [number, number][] {
  const bytes = files.reduce((n, f) => n + f.size, 0);
  const n = Math.max(1, Math.min(files.length, count));
  const out: [number, number][] = [];
  let from = 0;
  let size = 0;
  files.forEach((f, i) => {
    size += f.size;
    if (size >= (bytes / n) * (out.length + 1) && out.length < n - 1) {
      out.push([from, i + 1]);
      from = i + 1;
    }
  });
  if (from < files.length) out.push([from, files.length]);
  return out;
}

/** Runs jobs on the workers, one job per worker at a time, in order of dispatch. */
async function runJobs(
  workers: Worker[],
  jobs: JobRequest[],
  onReply: (r: Exclude<WorkerReply, { type: 'error' }>) => void,
): Promise<void> {
  if (!jobs.length) return;
  const offs: (() => void)[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      let next = 0;
      let pending = jobs.length;
      let failed = false;
      const fail = (err: unknown) => {
        if (!failed) ((failed = true), reject(err));
      };
      const dispatch = (w: Worker) => {
        if (next < jobs.length) w.postMessage(jobs[next++]);
      };
      for (const w of workers) {
        const onMessage = (m: WorkerReply) => {
          if (failed) return;
          if (m.type === 'error') return fail(new Error(`index worker: ${m.message}`));
          try {
            onReply(m);
          } catch (err) {
            return fail(err);
          }
          if (--pending === 0) return resolve();
          dispatch(w);
        };
        const onExit = (code: number) => fail(new Error(`index worker exited (${code})`));
        w.on('message', onMessage);
        w.on('error', fail);
        w.on('exit', onExit);
        offs.push(() => {
          w.off('message', onMessage);
          w.off('error', fail);
          w.off('exit', onExit);
        });
      }
      workers.forEach(dispatch);
    });
  } finally {
    offs.forEach((off) => off());
  }
}

/** Builds the files into the one-thread segments on `threads` workers; `onGroup` gets segment 0, 1, ... in order. */
export async function buildParallel(
  files: ScannedFile[],
  tier: Tier,
  search: { chunkTokens: number; overlapTokens: number },
  first: number,
  threads: number,
  flushDocs: number,
  onGroup: (g: BuiltGroup) => Promise<void>,
): Promise<void> {
  if (!files.length) return;
  // Loaded only to build from scratch: node:worker_threads takes 2 ms to load, 1 % of a one-edit `mem index`.
  const { Worker } = await import('node:worker_threads');
  const workers = Array.from({ length: threads }, () => new Worker(WORKER_FILE));
  const list = (from: number, to: number) => files.slice(from, to).map((f) => ({ path: f.path, abs: f.abs }));
  try {
    // Phase 1: doc counts.
    const counted: FileBuilt[] = new Array(files.length);
    const countGroups = byBytes(files, threads * COUNT_GROUPS_PER_WORKER);
    await runJobs(
      workers,
      countGroups.map(([from, to], job) => ({ type: 'count', job, tier, search, files: list(from, to) })),
      (r) => {
        const from = countGroups[r.job]![0];
        r.files.forEach((b, k) => (counted[from + k] = b));
      },
    );
    // The one-thread segment boundaries.
    const segs: { from: number; to: number; first: number; count: number }[] = [];
    let from = 0;
    let n = 0;
    let at = first;
    for (let i = 0; i < files.length; i++) {
      n += counted[i]!.count;
      if (n >= flushDocs) {
        segs.push({ from, to: i + 1, first: at, count: n });
        at += n;
        from = i + 1;
        n = 0;
      }
    }
    if (from < files.length) segs.push({ from, to: files.length, first: at, count: n });
    // Phase 2: segments, handed on in order.
    const done = new Map<number, BuiltGroup>();
    let emitted = 0;
    let chain = Promise.resolve();
    const emit = () => {
      while (emitted < segs.length) {
        const s = segs[emitted]!;
        const g: BuiltGroup | undefined = s.count
          ? done.get(emitted)
          : {
              files: files.slice(s.from, s.to),
              built: counted.slice(s.from, s.to),
              first: s.first,
              count: 0,
              lenSum: [0, 0, 0],
            };
        if (!g) return;
        done.delete(emitted);
        emitted++;
        chain = chain.then(() => onGroup(g));
        // Handled here, surfaced by the `await chain` below (an unhandled rejection would end the process).
        chain.catch(() => {});
      }
    };
    emit();
    const jobs = segs.flatMap((s, job) =>
      s.count ? [{ type: 'build' as const, job, tier, search, first: s.first, files: list(s.from, s.to) }] : [],
    );
    await runJobs(workers, jobs, (r) => {
      if (r.type !== 'built') throw new Error('index worker: unexpected reply');
      const s = segs[r.job]!;
      r.files.forEach((b, k) => {
        const c = counted[s.from + k]!;
        if (b.hash !== c.hash || b.count !== c.count)
          throw new Error(`${files[s.from + k]!.path} changed during the build`);
      });
      done.set(r.job, {
        files: files.slice(s.from, s.to),
        built: r.files,
        first: s.first,
        count: s.count,
        segment: { dict: r.dict, post: r.post, didx: r.didx, docs: r.docs },
        lenSum: r.lenSum,
      });
      emit();
    });
    await chain;
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
