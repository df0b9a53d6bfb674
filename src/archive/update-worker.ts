/**
 * The worker thread of a rebuild (update-thread.ts): runs the update on the workspace it is given
 * and posts its progress lines and its result, or its error's code and message, to the main thread,
 * which holds the archive lock for it and tells it when that lock is lost.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { testHook } from '../core/test-hooks.js';
import { defaultLockOptions } from '../write/defaults.js';
import type { HeldLock } from '../write/locks.js';
import { WorkspaceWriter } from '../write/writer.js';
import { failure, type MainMessage, type WorkerInput, type WorkerMessage } from './update-thread.js';
import { runUpdate } from './update.js';

const port = parentPort!;
const input = workerData as WorkerInput;
const post = (m: WorkerMessage) => port.postMessage(m);
// The main thread's lock, as the writer sees it: lost when the main thread says so.
const lock: HeldLock = { name: 'archive', compromised: null, release: async () => {} };
port.on('message', (m: MainMessage) => {
  if (m.type === 'lock-lost') lock.compromised ??= new Error(m.message);
});

/** Test hook: the build waits until the main thread says the lock is lost (a test takes it away meanwhile). */
async function pauseForTest(): Promise<void> {
  if (testHook('MEM_FAULT') !== 'pause-archive-worker') return;
  process.stderr.write('archive worker paused before building\n');
  const until = Date.now() + (Number(testHook('MEM_FAULT_MS')) || 2000);
  while (!lock.compromised && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
}

try {
  await pauseForTest();
  const writer = new WorkspaceWriter(input.workspace, 'index', defaultLockOptions(input.loaded.config), lock);
  const progress = input.progress ? (msg: string) => post({ type: 'progress', msg }) : undefined;
  const result = await runUpdate(input.workspace, input.loaded, writer, {
    rebuild: input.rebuild,
    warnNotText: input.warnNotText,
    ...(progress ? { progress } : {}),
  });
  post({ type: 'done', result });
} catch (err) {
  post({ type: 'failed', ...failure(err) });
}
