/**
 * The wire of the resident search server, shared by client and server and import-lean (node: only,
 * since a fresh `mem search` loads it before anything else). One connection carries one request: a
 * line of JSON from the client, a line of JSON back, then the server closes it. An `index` request
 * is acknowledged first (`Started`, as the server starts the run), so its client can give a wedged
 * or stopped server seconds, not the minute a run may take. Where it listens: address.ts.
 *
 * A search writes nothing into the workspace, through the server or not; an `index` request writes
 * what `mem index` would.
 *
 * A reply is either an answer, as data (reply-data.ts: the same SearchOutcome the cold path computes,
 * or a served index run's result; never printed text: the client prints it with the cold path's
 * code), or `cold` with a reason: the client then answers cold, so the server never has to reproduce
 * an error or a rare path. PROTOCOL 2: replies carry data only (1 carried a printout).
 */
import fs from 'node:fs';
import { distFile } from '../../core/package-root.js';
import { clientEnv, type ClientEnv } from './client-env.js';
import { MAX_TIMER_MS } from '../../config/timer.js';
import type { Filters } from '../query/filter.js';
import type { SearchOutcome } from '../query/outcome.js';
import { connector } from './raw-pipe.js';
import type { ServedIndexRun } from './reply-data.js';
import type { ArchiveRequest, ContextRequest, IndexRequest } from './requests.js';

export { clientEnv, envMismatch, type ClientEnv } from './client-env.js';
export type { ArchiveAsk, ArchiveRequest, ContextAsk, ContextRequest, IndexRequest } from './requests.js';

export const PROTOCOL = 2;
/** Largest request or reply line accepted (a 100 KB query and 50 results of 2,000 characters fit). */
export const MAX_LINE = 8 << 20;

export interface SearchQuery {
  query: string;
  k: number;
  deep: boolean;
  filters: Filters;
  today: string;
  lexicalOnly: boolean;
}

/**
 * A search request. With `fill`, the client read no configuration (src/cli/served.ts): the server
 * takes `k` (when absent) and "today" from its own (reloaded on change), and its reply carries the
 * configuration's warnings beside the outcome, for the client to print as the cold path does.
 */
export type SearchRequest = { v: number; build: string; op: 'search'; workspace: string; env: ClientEnv } & (
  SearchQuery | (Omit<SearchQuery, 'k' | 'today'> & { fill: true; k?: number })
);

/** What every search or index request opens with: protocol, build, workspace and the client's environment. */
export function requestHead(
  realWs: string,
  env: NodeJS.ProcessEnv,
): { v: number; build: string; workspace: string; env: ClientEnv } {
  return { v: PROTOCOL, build: buildStamp(), workspace: realWs, env: clientEnv(env) };
}

export type Request =
  | SearchRequest
  | IndexRequest
  | ArchiveRequest
  | ContextRequest
  | { v: number; build: string; op: 'status'; workspace: string }
  | { v: number; build: string; op: 'stop'; workspace: string };

export interface ServerStatus {
  pid: number;
  workspace: string;
  mode: 'on-demand' | 'watch' | 'daemon';
  rssBytes: number;
  heapUsedBytes: number;
  /** Queries answered, and queries left to the client to answer cold. */
  served: number;
  cold: number;
  /** Of those answered: asked before the client read any configuration (`fill`, src/cli/served.ts). */
  fast: number;
  /** `mem index` runs the server did; those it left to the client count as `cold`. */
  indexed: number;
  /** Time spent answering (ms, inside the server), median and 95th percentile of the last 1,000. */
  answerMs: { p50: number; p95: number } | null;
  startedAt: string;
  idleMs: number | null;
  build: string;
}

/** The line before an index reply: the server has started the run. */
export interface Started {
  v: number;
  started: true;
}

export type Reply =
  | { v: number; ok: true; outcome: SearchOutcome; warnings?: string[] }
  | { v: number; ok: true; index: ServedIndexRun }
  | { v: number; ok: true; archive: unknown; warnings: string[] }
  | { v: number; ok: true; context: unknown; warnings: string[] }
  | { v: number; ok: true; status: ServerStatus }
  | { v: number; ok: false; cold: string };

/**
 * Identifies this build: a server of another build answers `cold` and never mixes code versions. The
 * mtime of dist's protocol.js, whichever bundle or module asks (core/package-root.ts).
 */
export function buildStamp(): string {
  try {
    return `${PROTOCOL}:${Math.round(fs.statSync(distFile('search/server/protocol.js')).mtimeMs)}`;
  } catch {
    return `${PROTOCOL}:?`;
  }
}

/**
 * MEM_SEARCH_SERVER: `off` (searches never ask a server and nothing starts one), `no-spawn` (use a
 * running server, never start one on demand: the test suite's default), `spawn` (start one on demand
 * whatever the index size), anything else or unset: `auto` (start on demand past a size threshold).
 */
export type ServerSwitch = 'off' | 'no-spawn' | 'spawn' | 'auto';
export function serverSwitch(env: NodeJS.ProcessEnv = process.env): ServerSwitch {
  const v = (env.MEM_SEARCH_SERVER ?? '').trim().toLowerCase();
  if (v === 'off' || v === '0' || v === 'false' || v === 'no') return 'off';
  if (v === 'no-spawn') return 'no-spawn';
  if (v === 'spawn') return 'spawn';
  return 'auto';
}

/**
 * How long a client waits for an answer before answering cold (a busy or wedged server):
 * MEM_SEARCH_SERVER_TIMEOUT_MS when it is a whole number of milliseconds a timer can hold, else 3 s
 * (a longer one would fire at once, with a TimeoutOverflowWarning on stderr).
 */
function replyTimeout(raw: string | undefined): number {
  const ms = Number(raw);
  return Number.isInteger(ms) && ms >= 1 && ms <= MAX_TIMER_MS ? ms : 3_000;
}
const REPLY_TIMEOUT_MS = replyTimeout(process.env.MEM_SEARCH_SERVER_TIMEOUT_MS);

/** Cold replies of a server on its way out: asking again may reach (or start) its successor. */
const LEAVING: ReadonlySet<string> = new Set(['stopping', 'server of another build']);

/**
 * True when a server was there and will not answer this client: it declined for a reason that
 * holds for the rest of this run (another user configuration, no usable index …) or never replied
 * in time. Asking it again would only repeat that, or wait out another timeout.
 */
export function declined(reply: Reply | undefined | 'absent'): boolean {
  return reply === undefined || (reply !== 'absent' && !reply.ok && !LEAVING.has(reply.cold));
}

/**
 * Sends one request and resolves with the reply, or undefined (no server, timeout, bad reply). The
 * reply is due within `timeoutMs`, or within `startedMs` of a `Started` line (an index run). `sent`
 * runs once the request is written: work the client needs after the reply, done while the server
 * answers.
 */
export async function exchange(
  address: string,
  req: Request,
  timeoutMs = REPLY_TIMEOUT_MS,
  startedMs = timeoutMs,
  sent?: () => void,
): Promise<Reply | undefined | 'absent'> {
  // No socket file, no server: answered without connecting (Unix; a pipe cannot be looked at).
  if (process.platform !== 'win32' && !fs.existsSync(address)) return 'absent';
  return new Promise((resolve) => {
    // The bytes of the line being read (a line is split on its newline byte, then decoded whole).
    let parts: Buffer[] = [];
    let size = 0;
    let settled = false;
    const done = (r: Reply | undefined | 'absent') => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      conn.close();
      resolve(r);
    };
    let timer = setTimeout(() => done(undefined), timeoutMs);
    const line = (text: string) => {
      let got: Reply | Started;
      try {
        got = JSON.parse(text) as Reply | Started;
      } catch {
        return done(undefined);
      }
      // Anything but an object is no reply (a foreign process on the socket).
      if (typeof got !== 'object' || got === null) return done(undefined);
      if (!('started' in got)) return done(got);
      clearTimeout(timer);
      timer = setTimeout(() => done(undefined), startedMs);
    };
    const conn = connector()(address, {
      connected() {
        conn.write(JSON.stringify(req) + '\n');
        try {
          sent?.();
        } catch {
          // Only a head start: whatever it prepares is prepared again when needed.
        }
      },
      data(chunk) {
        let from = 0;
        for (let nl = chunk.indexOf(10); nl >= 0 && !settled; nl = chunk.indexOf(10, from)) {
          parts.push(chunk.subarray(from, nl));
          const text = Buffer.concat(parts).toString('utf8');
          parts = [];
          size = 0;
          from = nl + 1;
          line(text);
        }
        if (settled || from === chunk.length) return;
        parts.push(chunk.subarray(from));
        if ((size += chunk.length - from) > MAX_LINE) done(undefined);
      },
      ended: (why) => done(why === 'absent' ? 'absent' : undefined),
    });
  });
}
