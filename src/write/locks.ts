/**
 * Job and file locks (DESIGN §7) on proper-lockfile: a holder refreshes its lock's mtime, so a lock
 * whose holder was SIGKILLed turns stale and is reclaimed, while a live holder is never robbed.
 * Waiting is bounded: a busy lock ends in LOCK_BUSY (exit 3) after `waitMs`, never a hang.
 * A lock names its holder (host, pid, process start): one whose holder on this host is gone is
 * reclaimed at once, so a scheduled run in the minute after a kill does not fail (./lock-owner.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { MemError, writeRefused } from '../core/errors.js';
import { ensureDir } from './atomic.js';
import { ownerGone, reclaimIfOwnerGone, removeOwner, writeOwner } from './lock-owner.js';

export const LOCK_DIR = 'memory/.locks';

export interface LockOptions {
  waitMs: number;
  staleMs: number;
  updateMs?: number;
}

export interface HeldLock {
  name: string;
  /** Set when the lock was lost (its mtime could not be refreshed in time): stop writing. */
  compromised: Error | null;
  release(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** proper-lockfile, loaded by the first lock taken or checked (a read such as `mem status` often takes none: about 13 ms). */
const lockfile = async () => (await import('proper-lockfile')).default;

export function lockPath(workspace: string, name: string): string {
  return path.join(workspace, LOCK_DIR, `${name}.lock`);
}

export async function acquireLock(workspace: string, name: string, opts: LockOptions): Promise<HeldLock> {
  const target = lockPath(workspace, name);
  const refused = (err: unknown) => writeRefused(err, `the "${name}" lock in ${LOCK_DIR}`, 'nothing was written');
  await ensureDir(path.dirname(target)).catch((err: unknown) => {
    throw refused(err);
  });
  const deadline = Date.now() + opts.waitMs;
  const held: HeldLock = { name, compromised: null, release: async () => {} };
  for (let delay = 50; ; delay = Math.min(delay * 1.5, 500)) {
    try {
      const release = await (
        await lockfile()
      ).lock(target, {
        lockfilePath: target,
        realpath: false,
        stale: opts.staleMs,
        update: opts.updateMs,
        retries: 0,
        onCompromised: (err) => {
          held.compromised = err;
        },
      });
      held.release = async () => {
        await removeOwner(target);
        await release().catch(() => {});
      };
      await writeOwner(target);
      return held;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ELOCKED') throw refused(err);
      if (await reclaimIfOwnerGone(target)) continue;
      if (Date.now() >= deadline) {
        throw new MemError(
          'LOCK_BUSY',
          `another "${name}" run holds ${path.relative(workspace, target)}; waited ${Math.round(opts.waitMs / 1000)}s — try again later (a lock left by a killed run is reclaimed after ${Math.round(opts.staleMs / 1000)}s)`,
        );
      }
      await sleep(Math.min(delay, Math.max(0, deadline - Date.now())));
    }
  }
}

export async function isLocked(workspace: string, name: string, staleMs: number): Promise<boolean> {
  const target = lockPath(workspace, name);
  return (
    (await (await lockfile()).check(target, { lockfilePath: target, realpath: false, stale: staleMs })) &&
    !ownerGone(target)
  );
}

/** Runs `fn` holding the named lock; the lock is released whatever happens. */
export async function withLock<T>(
  workspace: string,
  name: string,
  opts: LockOptions,
  fn: (lock: HeldLock) => Promise<T>,
): Promise<T> {
  const lock = await acquireLock(workspace, name, opts);
  try {
    return await fn(lock);
  } finally {
    await lock.release();
  }
}
