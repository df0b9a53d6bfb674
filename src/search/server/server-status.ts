/**
 * What a running search server says of itself (`op: status`: its pid, mode, memory, counts and
 * answer times, for `mem status` and the tests) and the stamp that tells it its configuration files
 * changed. Pure but for the stats of those files and the process's memory.
 */
import fs from 'node:fs';
import { PROTOCOL, type Reply } from './protocol.js';
import type { ServerOptions } from './claim.js';

/** Requests answered: searches, those answered cold (declined), searches of a client that read no configuration, index runs. */
export interface ServedCounts {
  served: number;
  cold: number;
  fast: number;
  indexed: number;
}

export function configStamp(files: string[]): string {
  return files
    .map((f) => {
      const st = fs.statSync(f, { throwIfNoEntry: false });
      return st ? `${st.size}:${st.mtimeMs}` : '-';
    })
    .join('|');
}

function percentiles(xs: number[]): { p50: number; p95: number } | null {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => Math.round(s[Math.min(s.length - 1, Math.ceil(s.length * q) - 1)]! * 10) / 10;
  return { p50: at(0.5), p95: at(0.95) };
}

export function statusReply(
  o: ServerOptions,
  counts: ServedCounts,
  times: number[],
  startedAt: string,
  build: string,
): Reply {
  const m = process.memoryUsage();
  return {
    v: PROTOCOL,
    ok: true,
    status: {
      pid: process.pid,
      workspace: o.workspace,
      mode: o.mode,
      rssBytes: m.rss,
      heapUsedBytes: m.heapUsed,
      served: counts.served,
      cold: counts.cold,
      fast: counts.fast,
      indexed: counts.indexed,
      answerMs: percentiles(times),
      startedAt,
      idleMs: o.idleMs || null,
      build,
    },
  };
}
