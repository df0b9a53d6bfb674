/**
 * Taking a workspace's address (address.ts) for a new server: one server per workspace. A live
 * server there stays, unless the new one (of `mem watch` or `mem daemon`) takes over: it asks the
 * old one to stop and waits for its socket to go, except that a watch leaves a daemon's server be.
 * A socket nobody accepts on (left by a dead server) is removed and reused.
 */
import fs from 'node:fs';
import type net from 'node:net';
import { privateDir, socketDir } from './address.js';
import {
  buildStamp,
  exchange,
  PROTOCOL,
  type ArchiveAsk,
  type ContextAsk,
  type Reply,
  type ServerStatus,
} from './protocol.js';
import type { Config } from '../../config/schema.js';
import type { LoadedConfig } from '../../config/load.js';
import type { StatedMemoryFile } from '../../entries/heads-files.js';

/** The private folder of this user's sockets, made if missing; refused when others can reach it. */
export function prepareDir(): void {
  if (process.platform === 'win32') return;
  const dir = socketDir();
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!privateDir(dir)) throw new Error(`${dir} is not a private folder of this user (owner or mode); not serving`);
}

/** The daemon's server that a watch's leaves be, from the `probe` it answered (undefined: take over). */
function keptDaemon(mode: ServerMode, probe: Reply | undefined): ServerStatus | undefined {
  return mode === 'watch' && probe?.ok && 'status' in probe && probe.status.mode === 'daemon'
    ? probe.status
    : undefined;
}

/** Another server of this workspace stays, and says which. */
export interface Another {
  another: string;
}

/** Resolves 'serving' once listening, or with why a live server of this workspace stays. */
export async function claim(
  address: string,
  o: Pick<ServerOptions, 'workspace' | 'mode' | 'takeover'>,
  server: net.Server,
): Promise<'serving' | Another> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const probe = await exchange(
      address,
      { v: PROTOCOL, build: buildStamp(), op: 'status', workspace: o.workspace },
      2_000,
    );
    if (probe !== 'absent') {
      if (!o.takeover) return { another: 'another search server serves this workspace' };
      const daemon = keptDaemon(o.mode, probe);
      if (daemon)
        return {
          another: `the search server of mem daemon (pid ${daemon.pid}) serves this workspace; searches go to it`,
        };
      // Ask it to stop, and wait for its socket to go.
      await exchange(address, { v: PROTOCOL, build: buildStamp(), op: 'stop', workspace: o.workspace }, 2_000);
      for (let i = 0; i < 50 && fs.existsSync(address); i++) await new Promise((r) => setTimeout(r, 100));
    } else if (process.platform !== 'win32') {
      fs.rmSync(address, { force: true }); // Left by a dead server: nobody accepts on it.
    }
    const ok = await new Promise<boolean>((resolve, reject) => {
      const onError = (err: NodeJS.ErrnoException) => (err.code === 'EADDRINUSE' ? resolve(false) : reject(err));
      server.once('error', onError);
      server.listen(address, () => {
        server.off('error', onError);
        resolve(true);
      });
    });
    if (ok) return 'serving';
  }
  return { another: 'another search server keeps serving this workspace' };
}

export type ServerMode = ServerStatus['mode'];

export interface ServerOptions {
  workspace: string;
  mode: ServerMode;
  /** Stop after this long without a request; 0: never (watch and daemon servers). */
  idleMs: number;
  /** Ask a running server of this workspace to stop and serve instead (watch and daemon). */
  takeover: boolean;
  loadConfig(): LoadedConfig;
  /** Config files whose change means reloading the configuration. */
  configFiles: string[];
  log(text: string): void;
  /**
   * `mem search --archive` (protocol.ts ArchiveAsk), answered by the archive tier that the process
   * hosting the server plugs in (the archive sits above search/); without it, such a client answers cold.
   */
  archive?: (config: Config, ask: ArchiveAsk) => Promise<{ archive: unknown; warnings: string[] }>;
  /**
   * A plain `mem context` (protocol.ts ContextAsk), built by the context code the hosting process
   * plugs in, given memory/'s Markdown files as the tracker lists them (path, size, mtime, ctime,
   * sorted by path): what a cold run would state one by one.
   */
  context?: (loaded: LoadedConfig, ask: ContextAsk, memoryFiles: StatedMemoryFile[]) => Promise<unknown>;
}
