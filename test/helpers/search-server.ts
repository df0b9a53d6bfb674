/** The resident search server in tests: start one as a real process, ask how it reports itself, poll. */
import { spawn, type ChildProcess } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { childEnv, ROOT } from './cli.js';
import { exchange, PROTOCOL, type ServerStatus } from '../../src/search/server/protocol.js';
import { socketAddress } from '../../src/search/server/address.js';
import { index, searchWorkspace } from '../search-helpers.js';

export const MAIN = join(ROOT, 'dist', 'cli', 'search-server.js');

/** Polls `fn` until it gives something truthy (generous deadlines: no timing is asserted). */
export async function waitFor<T>(
  what: string,
  fn: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs: number,
  everyMs: number,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** The server of `ws` as it reports itself, or undefined when none answers. */
const reals = new Map<string, string>();
export async function status(ws: string): Promise<ServerStatus | undefined> {
  if (!reals.has(ws)) reals.set(ws, realpathSync(ws));
  const real = reals.get(ws)!;
  const r = await exchange(socketAddress(real), { v: PROTOCOL, build: '', op: 'status', workspace: real }, 10_000);
  return r && r !== 'absent' && r.ok && 'status' in r ? r.status : undefined;
}

export function startServer(
  ws: string,
  extra: string[] = [],
  env: Record<string, string> = {},
): { child: ChildProcess; done: Promise<{ code: number | null; stderr: string }> } {
  const child = spawn(process.execPath, [MAIN, '--workspace', realpathSync(ws), '--mode', 'on-demand', ...extra], {
    env: childEnv(env),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const done = new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stderr })),
  );
  return { child, done };
}

export function killAfter(t: { after(fn: () => void): void }, child: ChildProcess): void {
  t.after(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
}

/** The search fixture, indexed, with its server running (killed after the test) and that server's first status. */
export async function servedWorkspace(t: { after(fn: () => void): void }): Promise<{ ws: string; up: ServerStatus }> {
  const ws = searchWorkspace(t);
  await index(ws);
  const { child } = startServer(ws);
  killAfter(t, child);
  return { ws, up: await waitFor('the server', async () => (await status(ws)) ?? false, 60_000, 200) };
}
