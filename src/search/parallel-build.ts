/**
 * A rebuild of a tier spread over worker threads (index-worker.ts): the files, in their manifest
 * order, are cut into contiguous groups of about GROUP_BYTES, each built into one segment by
 * whichever worker is free. A group's first doc id is the sum of the doc counts of the groups
 * before it, so a worker reports its counts first and finishes the segment once that id is known;
 * the caller receives the groups strictly in order.
 *
 * Invariant: the docs (records, ids, tokens, postings) are exactly those a sequential build gives;
 * only where segment boundaries fall differs. Used only when asked (`MEM_INDEX_WORKERS=2`, see
 * buildThreads) for a tier built from scratch, with the compiled worker present (not under tsx).
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { FileBuilt, GroupRequest, WorkerReply } from './index-worker.js';
import type { ScannedFile } from './scan.js';
import type { SegmentFiles } from './segment-format.js';
import type { Tier } from './types.js';

/** About one sequential segment's worth of Markdown (25,000 chunks is about 12 MB of source). */
const GROUP_BYTES = 12 * 1024 * 1024;

export interface BuiltGroup {
  files: ScannedFile[];
  built: FileBuilt[];
  first: number;
  count: number;
  segment: SegmentFiles;
  lenSum: [number, number, number];
}

const WORKER_URL = new URL('./index-worker.js', import.meta.url);

/**
 * Worker threads to use for building these files from scratch; 0 = build in this thread, which is
 * the default. Two workers are used only when asked (`MEM_INDEX_WORKERS=2`): measured on the
 * project's shared two-core machine they cut a 10,000-file rebuild by about a quarter when a core was
 * idle, not at all when it was busy, for a quarter more CPU time; and their segment boundaries differ
 * from a one-thread build's, which can move scores of queries whose common terms are capped
 * (engine.ts reads at most POSTING_CAP pairs per term, shared among segments), so a default rebuild
 * stays deterministic.
 */
export function buildThreads(files: ScannedFile[]): number {
  const env = process.env.MEM_INDEX_WORKERS;
  const asked = env !== undefined && env !== '' ? Math.max(0, Math.min(8, Number.parseInt(env, 10) || 0)) : 0;
  if (asked < 2 || !files.length) return 0;
  if (!fs.existsSync(fileURLToPath(WORKER_URL))) return 0;
  return asked;
}

/** A failure of the worker machinery (not of the index): the caller builds in one thread instead. */
export class ParallelBuildError extends Error {
  override name = 'ParallelBuildError';
}

/** Contiguous groups of about GROUP_BYTES, at least one per thread. */
export function fileGroups(files: ScannedFile[], threads: number): ScannedFile[][] {
  const bytes = files.reduce((n, f) => n + f.size, 0);
  const count = Math.min(files.length, Math.max(threads, Math.ceil(bytes / GROUP_BYTES)));
  const target = bytes / count;
  const groups: ScannedFile[][] = [];
  let cur: ScannedFile[] = [];
  let size = 0;
  for (const f of files) {
    cur.push(f);
    size += f.size;
    if (size >= target * (groups.length + 1) && groups.length < count - 1) {
      groups.push(cur);
      cur = [];
    }
  }
  if (cur.length) groups.push(cur);
  return groups;
}

/** Builds the groups on `threads` workers; `onGroup` is called for group 0, 1, ... in order. */
export async function buildParallel(groups: ScannedFile[][], tier: Tier, search: { chunkTokens: number; overlapTokens: number }, first: number, threads: number, onGroup: (g: BuiltGroup) => Promise<void>): Promise<void> {
  if (!groups.length) return;
  const workers = Array.from({ length: Math.min(threads, groups.length) }, () => new Worker(WORKER_URL));
  try {
    await new Promise<void>((resolve, reject) => {
      const counted: ({ built: FileBuilt[]; count: number; worker: Worker } | undefined)[] = [];
      const firsts: number[] = [];
      const done = new Map<number, BuiltGroup>();
      let dispatched = 0;
      let known = 0;
      let nextFirst = first;
      let emitted = 0;
      let chain = Promise.resolve();
      let failed = false;
      const fail = (err: unknown) => {
        if (!failed) (failed = true), reject(err);
      };
      const dispatch = (w: Worker) => {
        if (dispatched >= groups.length) return;
        const g = dispatched++;
        w.postMessage({ type: 'group', group: g, tier, search, files: groups[g]!.map((f) => ({ path: f.path, abs: f.abs })) } satisfies GroupRequest);
      };
      // First ids become known in group order; a counted group waiting for its id gets it then.
      const advance = () => {
        while (counted[known]) {
          const c = counted[known]!;
          firsts[known] = nextFirst;
          nextFirst += c.count;
          c.worker.postMessage({ type: 'finish', group: known, first: firsts[known] });
          known++;
        }
      };
      for (const w of workers) {
        w.on('message', (m: WorkerReply) => {
          if (failed) return;
          if (m.type === 'error') return fail(new Error(`index worker: ${m.message}`));
          if (m.type === 'counted') {
            counted[m.group] = { built: m.files, count: m.count, worker: w };
            return advance();
          }
          const c = counted[m.group]!;
          done.set(m.group, { files: groups[m.group]!, built: c.built, first: firsts[m.group]!, count: c.count, segment: { dict: m.dict, post: m.post, didx: m.didx, docs: m.docs }, lenSum: m.lenSum });
          dispatch(w);
          while (done.has(emitted)) {
            const g = done.get(emitted)!;
            done.delete(emitted);
            emitted++;
            chain = chain.then(() => onGroup(g));
          }
          if (emitted === groups.length) chain.then(resolve, fail);
          else chain.catch(fail);
        });
        w.on('error', fail);
        w.on('exit', (code) => {
          if (emitted < groups.length) fail(new Error(`index worker exited (${code}) before the build was done`));
        });
        dispatch(w);
      }
    });
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
