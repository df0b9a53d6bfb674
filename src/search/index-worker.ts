/**
 * Worker thread of a parallel rebuild (parallel-build.ts). For each group of files it is given, it
 * reads, chunks and tokenizes them into one segment builder, reports each file's hash and doc count,
 * waits for the group's first doc id (known once the groups before it are counted) and sends back
 * the finished segment files (transferred, not copied). It holds one group at a time.
 */
import { parentPort } from 'node:worker_threads';
import { addDocs } from './docs.js';
import { SegmentBuilder } from './segment-builder.js';
import { readSource } from './source.js';
import type { Tier } from './types.js';

export interface GroupRequest {
  type: 'group';
  group: number;
  tier: Tier;
  search: { chunkTokens: number; overlapTokens: number };
  files: { path: string; abs: string }[];
}

export interface FileBuilt {
  hash: string;
  count: number;
  skipped: boolean;
  warning?: string;
}

export type WorkerReply =
  | { type: 'counted'; group: number; files: FileBuilt[]; count: number }
  | { type: 'built'; group: number; dict: Uint8Array; post: Uint8Array; didx: Uint8Array; docs: Uint8Array; lenSum: [number, number, number] }
  | { type: 'error'; group: number; message: string };

const port = parentPort!;
let pending: { group: number; builder: SegmentBuilder } | undefined;

port.on('message', (m: GroupRequest | { type: 'finish'; group: number; first: number }) => {
  try {
    if (m.type === 'group') {
      // Tests prove the one-thread fallback with this (like MEM_WATCH_SIMULATE_ERROR).
      if (process.env.MEM_INDEX_SIMULATE_WORKER_ERROR) throw new Error('simulated worker failure');
      const builder = new SegmentBuilder(0);
      const files = m.files.map((f): FileBuilt => {
        const src = readSource(f.abs, f.path);
        const count = src.text === null ? 0 : addDocs(builder, f.path, src.text, m.tier, m.search);
        return { hash: src.hash, count, skipped: src.text === null, ...(src.warning ? { warning: src.warning } : {}) };
      });
      pending = { group: m.group, builder };
      port.postMessage({ type: 'counted', group: m.group, files, count: builder.count } satisfies WorkerReply);
    } else if (m.type === 'finish') {
      if (pending?.group !== m.group) throw new Error(`index worker: no group ${m.group} to finish`);
      const { builder } = pending;
      pending = undefined;
      const seg = builder.finish(m.first);
      // Each file's bytes get their own buffer (a pooled Buffer must not be transferred).
      const own = (a: Uint8Array) => (a.byteOffset === 0 && a.byteLength === a.buffer.byteLength ? a : a.slice());
      const reply = { type: 'built', group: m.group, dict: own(seg.dict), post: own(seg.post), didx: own(seg.didx), docs: own(seg.docs), lenSum: builder.lenSum } satisfies WorkerReply;
      port.postMessage(reply, [reply.dict.buffer, reply.post.buffer, reply.didx.buffer, reply.docs.buffer] as ArrayBuffer[]);
    }
  } catch (err) {
    port.postMessage({ type: 'error', group: m.group, message: (err as Error).message ?? String(err) } satisfies WorkerReply);
  }
});
