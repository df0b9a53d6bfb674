#!/usr/bin/env node
/**
 * The search server as its own process: `node dist/cli/search-server.js --workspace <real path>
 * --mode on-demand|watch|daemon [--idle-ms N] [--takeover]`. Started detached by a search (on demand)
 * or as a child of `mem watch`/`mem daemon` (with an IPC channel: the server stops when its parent
 * goes). Never prints a stack trace; a failure to start is one line on stderr, a marker beside the
 * socket (searches then start no other server for a minute) and exit 1. Tells an
 * IPC parent `{ ready, address }` or `{ another }` (a server already serves this workspace: which).
 * It sits in cli/, above every layer, as the process's entry: it plugs the archive tier (archive/,
 * which sits above search/) into the server, so `mem search --archive` is served too (archive-search.ts),
 * and the context pack (context/run.ts), so a plain `mem context` is (read-commands.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { CONFIG_FILE, LOCAL_CONFIG_FILE, loadConfig, userConfigPath } from '../config/load.js';
import { failedMarker } from '../search/server/client.js';
import { privateDir, socketAddress, socketDir } from '../search/server/address.js';
import { startServer } from '../search/server/server.js';
import { type ServerMode } from '../search/server/claim.js';
import { testHook } from '../core/test-hooks.js';

const DEFAULT_IDLE_MS = 10 * 60_000;

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? undefined : process.argv[i + 1];
}

async function main(): Promise<number> {
  const workspace = arg('workspace');
  const mode = (arg('mode') ?? 'on-demand') as ServerMode;
  if (!workspace || !path.isAbsolute(workspace) || !['on-demand', 'watch', 'daemon'].includes(mode)) {
    process.stderr.write(
      'mem search server: usage: search-server.js --workspace <absolute path> --mode on-demand|watch|daemon [--idle-ms N] [--takeover]\n',
    );
    return 2;
  }
  const idleRaw = arg('idle-ms') ?? process.env.MEM_SEARCH_SERVER_IDLE_MS;
  const idleMs = mode !== 'on-demand' ? 0 : idleRaw === undefined ? DEFAULT_IDLE_MS : Number(idleRaw);
  if (!Number.isFinite(idleMs) || idleMs < 0) {
    process.stderr.write(`mem search server: idle time must be a number of milliseconds (got "${idleRaw}")\n`);
    return 2;
  }
  const simulated = testHook('MEM_SEARCH_SERVER_SIMULATE_ERROR');
  if (simulated) throw new Error(`simulated start-up failure (${simulated})`);
  // Resolves once the message is out (this process may exit right after).
  const send = (msg: unknown) =>
    new Promise<void>((resolve) =>
      process.send ? process.send(msg, undefined, undefined, () => resolve()) : resolve(),
    );
  const running = await startServer({
    workspace,
    mode,
    idleMs,
    takeover: process.argv.includes('--takeover'),
    loadConfig: () => loadConfig(workspace),
    configFiles: [userConfigPath(), path.join(workspace, CONFIG_FILE), path.join(workspace, LOCAL_CONFIG_FILE)],
    log: (t) => process.stderr.write(`${t}\n`),
    // Loaded at the first archive query only.
    archive: async (config, ask) => (await import('./archive-search.js')).archiveAnswer(workspace, config, ask),
    // A plain `mem context`: the cold run's own code, with memory/'s stats from the tracker.
    context: async (loaded, ask, memoryFiles) => {
      const [{ buildContext, checkBudget }, { filesDigestOf }, { clockInstant }, { DEFAULT_BUDGET }, { HOOK_HOSTS }] =
        await Promise.all([
          import('../context/run.js'),
          import('../entries/heads-files.js'),
          import('../core/instant.js'),
          import('../pack/fit.js'),
          import('../context/hook-input.js'),
        ]);
      // Who asked, for the use log: a host's session-start hook, else a plain context.
      const hook = HOOK_HOSTS.map((h) => `hook:${h}:SessionStart`).find((v) => v === ask.via);
      return buildContext({
        workspace,
        loaded,
        at: ask.at ?? clockInstant(loaded.zone),
        cwd: ask.cwd,
        ...(ask.scope !== undefined ? { scope: ask.scope } : {}),
        budget: checkBudget(ask.budget ?? DEFAULT_BUDGET),
        via: hook ?? 'context',
        filesDigest: filesDigestOf(memoryFiles),
      });
    },
  });
  if ('another' in running) {
    await send({ another: running.another });
    return 0;
  }
  fs.rmSync(failedMarker(running.address), { force: true });
  for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(sig, () => running.stop(sig));
  if (process.send) process.on('disconnect', () => running.stop('its parent went away'));
  void send({ ready: true, address: running.address, pid: process.pid });
  const why = await running.closed;
  process.stderr.write(`search server stopped: ${why}\n`);
  return 0;
}

main().then(
  (code) => {
    process.exit(code);
  },
  (err: unknown) => {
    process.stderr.write(`mem search server: ${(err as Error)?.message ?? String(err)}\n`);
    // Searches do not start another one for a minute (the marker sits beside the socket, never in the workspace).
    const ws = arg('workspace');
    if (ws && process.platform !== 'win32' && privateDir(socketDir())) {
      try {
        fs.writeFileSync(
          failedMarker(socketAddress(ws)),
          `${new Date().toISOString()} ${(err as Error)?.message ?? String(err)}\n`,
        );
      } catch {
        // nothing more to do
      }
    }
    process.exit(1);
  },
);
