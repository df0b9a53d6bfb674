/**
 * Starting the search server from `mem watch` and `mem daemon`: a child process (so indexing in the
 * parent never delays an answer) tied to its parent by an IPC channel. Invariant: the child never
 * outlives the parent (it stops when the channel closes, even if the parent is killed), and stop()
 * resolves only once it has exited. It takes over from an on-demand server of the same workspace
 * (and a daemon's from a watch's; a watch leaves a daemon's be: server.ts). MEM_SEARCH_SERVER=off
 * starts nothing.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { distFile } from '../../core/package-root.js';
import { serverSwitch } from './protocol.js';
import { realWorkspace } from './address.js';

export interface HostedServer {
  pid: number;
  address: string;
  stop(): Promise<void>;
}

type Started = { hosted: HostedServer } | { note: string };

/** Starts the server child; resolves with it, or with a note saying why there is none. */
export function hostSearchServer(workspace: string, mode: 'watch' | 'daemon', timeoutMs = 60_000): Promise<Started> {
  if (serverSwitch() === 'off') return Promise.resolve({ note: 'search server off (MEM_SEARCH_SERVER=off)' });
  // The server's process entry sits in cli/ (it plugs the archive tier in): dist/cli/search-server.js.
  const main = distFile('cli/search-server.js');
  let child: ChildProcess;
  try {
    child = spawn(process.execPath, [main, '--workspace', realWorkspace(workspace), '--mode', mode, '--takeover'], {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      windowsHide: true,
    });
  } catch (err) {
    return Promise.resolve({ note: `search server not started: ${(err as Error).message}` });
  }
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-2000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise<Started>((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      resolve({ note: `search server did not start within ${timeoutMs / 1000} s; searches answer cold` });
    }, timeoutMs);
    child.once('error', (err) => {
      clearTimeout(timer);
      resolve({ note: `search server not started: ${err.message}` });
    });
    const early = (code: number | null) => {
      clearTimeout(timer);
      resolve({ note: `search server exited (${code ?? 'signal'}): ${stderr.trim().split('\n').at(-1) ?? ''}` });
    };
    child.once('exit', early);
    child.on('message', (m: { ready?: boolean; another?: string; address?: string }) => {
      if (m.another) {
        // It exits by itself.
        clearTimeout(timer);
        child.off('exit', early);
        resolve({ note: m.another });
        return;
      }
      if (!m.ready) return;
      clearTimeout(timer);
      child.off('exit', early);
      // The server never keeps its parent alive: if the parent ends (even on an error path that
      // skips stop()), the channel closes and the server stops by itself.
      child.unref();
      (child as unknown as { channel?: { unref?(): void } }).channel?.unref?.();
      (child.stderr as unknown as { unref?(): void } | null)?.unref?.();
      resolve({
        hosted: {
          pid: child.pid!,
          address: m.address ?? '',
          stop: async () => {
            if (child.exitCode === null && child.signalCode === null) {
              child.ref(); // held until it has exited
              child.kill('SIGTERM');
            }
            await exited;
          },
        },
      });
    });
  });
}
