/**
 * Who holds a lock: `<name>.lock.owner` beside the lock folder (host, pid, process start, and the
 * folder's inode and birth time, so an owner file left from an earlier lock is never believed; not
 * inside the folder, as a file made there changes its mtime and proper-lockfile then thinks the
 * lock compromised). proper-lockfile
 * only knows a lock is abandoned once its mtime is `lockStaleMs` old, so a scheduled run in the
 * minute after a kill failed with LOCK_BUSY. A lock whose holder on this host has ended (its pid
 * gone, or reused by a process with another start time) is reclaimed at once. A lock from another
 * host, or without an owner file (an older memfold, or a holder between mkdir and writing it),
 * waits for staleness as before.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { processGone, processStart } from '../core/process.js';

interface Owner {
  host: string;
  pid: number;
  start?: string;
  /** The lock folder this owner holds: `<inode>/<birth time>`. */
  lock: string;
}

let reclaims = 0;
const ownerFile = (lockDir: string) => `${lockDir}.owner`;

function folderId(dir: string): string | undefined {
  const st = fs.statSync(dir, { throwIfNoEntry: false });
  return st ? `${st.ino}/${st.birthtimeMs}` : undefined;
}

export async function writeOwner(lockDir: string): Promise<void> {
  const lock = folderId(lockDir);
  if (!lock) return;
  const start = processStart(process.pid);
  const owner: Owner = { host: os.hostname(), pid: process.pid, ...(start ? { start } : {}), lock };
  // Best effort: without it the lock is still a lock, reclaimed by staleness only.
  await fs.promises.writeFile(ownerFile(lockDir), JSON.stringify(owner)).catch(() => {});
}

/** Called before the lock folder is removed on release. */
export async function removeOwner(lockDir: string): Promise<void> {
  const o = readOwner(lockDir, lockDir);
  if (o?.pid === process.pid) await fs.promises.rm(ownerFile(lockDir), { force: true }).catch(() => {});
}

/** The owner of the lock folder `dir` (named `lockDir` when held), when its owner file names that very folder. */
function readOwner(lockDir: string, dir: string): Owner | undefined {
  try {
    const o = JSON.parse(fs.readFileSync(ownerFile(lockDir), 'utf8')) as Partial<Owner>;
    return typeof o.host === 'string' && Number.isInteger(o.pid) && o.lock === folderId(dir) ? (o as Owner) : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the lock at `lockDir` names a holder on this host that has ended. */
export function ownerGone(lockDir: string): boolean {
  const owner = readOwner(lockDir, lockDir);
  return !!owner && owner.host === os.hostname() && owner.pid !== process.pid && processGone(owner.pid, owner.start);
}

/**
 * Removes the lock at `lockDir` when its holder on this host is gone; true when it did. The folder
 * is renamed away first and its owner read again there, so a rival that took the lock meanwhile
 * gets it back instead of losing it.
 */
export async function reclaimIfOwnerGone(lockDir: string): Promise<boolean> {
  if (!ownerGone(lockDir)) return false;
  const away = `${lockDir}.reclaim-${process.pid}-${++reclaims}`;
  try {
    await fs.promises.rename(lockDir, away);
  } catch {
    return false;
  }
  // The folder moved keeps its inode: the owner file still names it unless a rival's lock was moved.
  if (!readOwner(lockDir, away)) {
    await fs.promises.rename(away, lockDir).catch(() => {});
    return false;
  }
  await fs.promises.rm(away, { recursive: true, force: true });
  await fs.promises.rm(ownerFile(lockDir), { force: true }).catch(() => {});
  return true;
}
