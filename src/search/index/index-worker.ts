/**
 * Worker thread of a parallel rebuild (parallel-build.ts). Two kinds of job, one at a time:
 * `count` reads and chunks files and reports each file's hash and doc count (no tokens); `build`
 * reads, chunks and tokenizes a run of files into one segment whose first doc id it is given, and
 * sends back the segment files (transferred, not copied) with each file's hash and count again, so
 * the main thread can tell a file that changed between the two jobs.
 */
import { parentPort } from 'node:worker_threads';
import { addDocs, countDocs } from './build-docs.js';
import { SegmentBuilder } from './segment-builder.js';
import { readSource } from './source.js';
import type { Tier } from '../text/types.js';
import { testHook } from '../../core/test-hooks.js';

export interface JobRequest {
  type: 'count' | 'build';
  job: number;
  tier: Tier;
  search: { chunkTokens: number; overlapTokens: number };
  files: { path: string; abs: string }[];
  /** build: id of the segment's first doc. */
  first?: number;
}

export interface FileBuilt {
  hash: string;
  count: number;
  skipped: boolean;
  warning?: string;
}

export type WorkerReply =
  | { type: 'counted'; job: number; files: FileBuilt[] }
  | {
      type: 'built';
      job: number;
      files: FileBuilt[];
      dict: Uint8Array;
      post: Uint8Array;
      didx: Uint8Array;
      docs: Uint8Array;
      lenSum: [number, number, number];
    }
  | { type: 'error'; job: number; message: string };

const port = parentPort!;

port.on('message', async (m: JobRequest) => {
  try {
    // Tests prove the one-thread fallback with this (like MEM_WATCH_SIMULATE_ERROR).
    if (testHook('MEM_INDEX_SIMULATE_WORKER_ERROR')) throw new Error('simulated worker failure');
    const builder = m.type === 'build' ? new SegmentBuilder(m.first ?? 0) : undefined;
    const files = m.files.map((f): FileBuilt => {
      const src = readSource(f.abs, f.path);
      const count =
        src.text === null
          ? 0
          : builder
            ? addDocs(builder, f.path, src.text, m.tier, m.search)
            : countDocs(f.path, src.text, m.search);
      return { hash: src.hash, count, skipped: src.text === null, ...(src.warning ? { warning: src.warning } : {}) };
    });
    if (!builder) {
      port.postMessage({ type: 'counted', job: m.job, files } satisfies WorkerReply);
      return;
    }
    const seg = builder.finish();
    // Each file's bytes get their own buffer (a pooled or oversized Buffer must not be transferred).
    const own = (a: Uint8Array) => (a.byteOffset === 0 && a.byteLength === a.buffer.byteLength ? a : a.slice());
    const reply = {
      type: 'built',
      job: m.job,
      files,
      dict: own(seg.dict),
      post: own(seg.post),
      didx: own(seg.didx),
      docs: own(seg.docs),
      lenSum: builder.lenSum,
    } satisfies WorkerReply;
    port.postMessage(reply, [
      reply.dict.buffer,
      reply.post.buffer,
      reply.didx.buffer,
      reply.docs.buffer,
    ] as ArrayBuffer[]);
  } catch (err) {
    port.postMessage({
      type: 'error',
      job: m.job,
      message: (err as Error).message ?? String(err),
    } satisfies WorkerReply);
  }
});
