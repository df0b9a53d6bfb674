/**
 * wrapup and compound never run at the same time (DESIGN §7), nor beside a `forget --hard` (which
 * would lose the entry it removes to a job that planned with it): each holds the shared
 * `consolidation` lock and then its own job lock, always in that order, so two consolidation jobs
 * can never deadlock, and a busy lock ends in LOCK_BUSY (exit 3) after `limits.lockWaitMs`.
 *
 * The microsync catch-up a job runs first takes the `microsync` lock on its own; file writes take
 * the workspace write lock inside WorkspaceWriter. Lock order is always consolidation → job →
 * microsync → write, never the reverse.
 */
import fs from 'node:fs';
import { MemError } from '../core/errors.js';
import { acquireLock, type HeldLock, type LockOptions } from '../write/locks.js';
import { testHook } from '../core/test-hooks.js';

export const CONSOLIDATION_LOCK = 'consolidation';

export async function withConsolidationLock<T>(
  workspace: string,
  job: 'wrapup' | 'compound' | 'forget',
  locks: LockOptions,
  fn: (jobLock: HeldLock) => Promise<T>,
): Promise<T> {
  let shared: HeldLock;
  try {
    shared = await acquireLock(workspace, CONSOLIDATION_LOCK, locks);
  } catch (err) {
    if (err instanceof MemError && err.code === 'LOCK_BUSY') {
      throw new MemError(
        'LOCK_BUSY',
        `${job}: another consolidation job (wrapup, compound or forget --hard) is running — ${err.message}`,
      );
    }
    throw err;
  }
  try {
    const own = await acquireLock(workspace, job, locks);
    try {
      return await fn(own);
    } finally {
      await own.release();
    }
  } finally {
    await shared.release();
  }
}

/**
 * Fault injection for the lock tests (core/test-hooks.ts; inert without MEM_TEST_HOOKS=1): with MEM_FAULT=consolidation-pause
 * a job says so on stderr and holds its locks after planning and before writing, until the file
 * named by MEM_FAULT_RELEASE exists or MEM_FAULT_MS (default 2000) pass, so a test can start a rival
 * job or a microsync at a known moment however slow the machine is.
 */
export async function faultPause(job: string): Promise<void> {
  if (testHook('MEM_FAULT') !== 'consolidation-pause') return;
  const until = Date.now() + Number(testHook('MEM_FAULT_MS') ?? 2000);
  const release = testHook('MEM_FAULT_RELEASE');
  process.stderr.write(`mem-fault: ${job} paused holding its locks\n`);
  while (Date.now() < until && !(release && fs.existsSync(release))) await new Promise((r) => setTimeout(r, 50));
}
