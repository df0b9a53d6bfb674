/**
 * The client of the resident search server: a fresh `mem search` asks the server of its workspace and
 * gets the very SearchOutcome the cold path would compute, or `undefined` quickly (a missing socket
 * fails in well under a millisecond) and answers cold itself. Import-lean on purpose: node: modules
 * and protocol.ts only (no commander, zod, luxon, minisearch or opencc), as it runs before anything.
 *
 * On-demand start: when no server answers and the workspace's index is large enough to gain from one
 * (warm tier file ≥ 64 KB, about 500 files), the client starts a detached server (it exits
 * after 10 minutes idle) and still answers this query cold; later queries are served.
 *
 * Switch (environment): MEM_SEARCH_SERVER=off never asks and never starts a server; `no-spawn` asks a
 * running server but never starts one (the test suite's default); `spawn` starts one whatever the
 * size. MEM_SEARCH_SERVER_IDLE_MS sets an on-demand server's idle exit (default 600000). With MEM_DEBUG
 * set, a server's reason to let the client answer cold is printed on stderr.
 */
import fs from 'node:fs';
import path from 'node:path';
import { distFile } from '../../core/package-root.js';
import type { SearchOutcome } from '../query/outcome.js';
import {
  exchange,
  requestHead,
  serverSwitch,
  type ArchiveAsk,
  type ArchiveRequest,
  type Reply,
  type Request,
  type SearchQuery,
  type SearchRequest,
  type ServerSwitch,
} from './protocol.js';
import { privateDir, realWorkspace, socketAddress, socketDir } from './address.js';
import { outcomeIn } from './reply-data.js';

/** Index size (bytes of `.mem/index/warm.json`) from which a search starts a server on demand. */
export const SPAWN_MIN_INDEX_BYTES = 64 * 1024;
/** What a search asks the server: the protocol's query (protocol.ts). */
export type AskRequest = SearchQuery;

/** Starts a detached server for `realWs` (it exits by itself when another one runs). */
export async function spawnServer(realWs: string): Promise<void> {
  // The server's process entry sits in cli/ (it plugs the archive tier in): dist/cli/search-server.js.
  const main = distFile('cli/search-server.js');
  try {
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, [main, '--workspace', realWs, '--mode', 'on-demand'], {
      detached: true,
      stdio: 'ignore',
      windowsHide: true,
      cwd: path.parse(realWs).root,
    });
    child.on('error', () => {});
    child.unref();
  } catch {
    // No server this time: the search answers cold anyway.
  }
}

function worthAServer(realWs: string): boolean {
  const st = fs.statSync(path.join(realWs, '.mem', 'index', 'warm.json'), { throwIfNoEntry: false });
  return !!st && st.size >= SPAWN_MIN_INDEX_BYTES;
}

/** Longest Unix socket path used (the OS limit is 104-108 bytes); a longer one means no server. */
const MAX_SOCKET_PATH = 100;
/** After a server failed to start, searches wait this long before starting another. */
const FAILED_BACKOFF_MS = 60_000;

/** The marker a server that could not start leaves beside its socket (never in the workspace). */
export function failedMarker(address: string): string {
  return `${address}.failed`;
}

function recentlyFailed(address: string): boolean {
  const st = fs.statSync(failedMarker(address), { throwIfNoEntry: false });
  return !!st && Date.now() - st.mtimeMs < FAILED_BACKOFF_MS;
}

/** After no server answered: starts one for the next search or `mem index` when the switch and the index size call for it. */
export async function spawnIfWorth(realWs: string, sw: ServerSwitch): Promise<void> {
  if (sw === 'off' || sw === 'no-spawn' || (sw !== 'spawn' && !worthAServer(realWs))) return;
  const address = socketAddress(realWs);
  // Never beside another user's sockets, with a path too long for the OS, or soon after a failed start.
  if (
    process.platform !== 'win32' &&
    (address.length > MAX_SOCKET_PATH ||
      (fs.existsSync(socketDir()) && !privateDir(socketDir())) ||
      recentlyFailed(address))
  )
    return;
  await spawnServer(realWs);
}

/** Asks the workspace's resident server; undefined means: answer cold. Never throws. */
export async function askServer(workspace: string, req: AskRequest): Promise<SearchOutcome | undefined> {
  const { query, k, deep, filters, today, lexicalOnly } = req;
  return ask(
    workspace,
    { op: 'search', query, k, deep, filters, today, lexicalOnly },
    (r) => outcomeIn(r)?.outcome,
    true,
  );
}

/**
 * Asks the server to search the archive tier (`mem search --archive`); its reply as it came (the
 * client checks and prints it: cli/archive-report.ts), or undefined: answer cold. Starts no server.
 */
export async function askArchive(workspace: string, req: ArchiveAsk): Promise<unknown> {
  return ask(workspace, { ...req, op: 'archive' }, (r) => (r.ok && 'archive' in r ? r : undefined), false);
}

async function ask<T>(
  workspace: string,
  body: DistributiveOmit<SearchRequest | ArchiveRequest, 'v' | 'build' | 'workspace' | 'env'>,
  answered: (reply: Reply) => T | undefined,
  spawn: boolean,
): Promise<T | undefined> {
  try {
    const sw = serverSwitch();
    if (sw === 'off') return undefined;
    const realWs = realWorkspace(workspace);
    const address = socketAddress(realWs);
    const unix = process.platform !== 'win32';
    if (unix && address.length > MAX_SOCKET_PATH) return undefined;
    if (!unix || privateDir(socketDir())) {
      const reply = await exchange(address, { ...requestHead(realWs, process.env), ...body } as Request);
      if (reply !== 'absent') {
        const answer = reply && answered(reply);
        if (answer) return answer;
        if (process.env.MEM_DEBUG)
          process.stderr.write(
            `mem: search server: answering cold (${reply && !reply.ok ? reply.cold : 'no reply in time'})\n`,
          );
        return undefined;
      }
    } else if (fs.existsSync(socketDir())) {
      return undefined; // A socket folder another user owns or others can enter: never served from there.
    }
    // No server: this search answers cold; maybe start one for the next.
    if (spawn) await spawnIfWorth(realWs, sw);
    return undefined;
  } catch {
    return undefined;
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
