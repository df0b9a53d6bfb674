/**
 * One daemon per workspace: `.mem/daemon.pid` is created exclusively (O_EXCL), so of two daemons
 * starting at once exactly one wins. A pid file whose process is gone (a SIGKILLed daemon, a reboot)
 * is taken over; one whose process lives makes the second daemon refuse with DAEMON_RUNNING (exit 3).
 * A pid file that could not be written whole (a full disk) is removed again: left empty, it made the
 * next daemon refuse as if another one were starting.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MemError, writeRefused } from '../core/errors.js';
import { ensureDir } from '../write/atomic.js';
import { WorkspaceWriter } from '../write/writer.js';
import { defaultLockOptions } from '../write/defaults.js';
import { pidAlive } from '../core/process.js';
import { PID_FILE, readDaemonPid, type DaemonPid } from './pid-read.js';

export { PID_FILE, readDaemonPid, type DaemonPid } from './pid-read.js';

/** Creates `file` holding `text`: false when it exists; a file it created but could not fill is removed. */
function createExclusive(file: string, text: string): boolean {
  let fd: number;
  try {
    fd = fs.openSync(file, 'wx');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    fs.writeSync(fd, text);
  } catch (err) {
    fs.rmSync(file, { force: true });
    throw err;
  } finally {
    fs.closeSync(fd);
  }
  return true;
}

/**
 * Takes the pid file or throws DAEMON_RUNNING (or WRITE_FAILED: `.mem` is a file, the disk is full);
 * returns a function that removes it (only if still ours).
 */
export async function takePidFile(workspace: string): Promise<() => void> {
  const file = new WorkspaceWriter(workspace, 'index', defaultLockOptions()).resolve(PID_FILE);
  try {
    await ensureDir(path.dirname(file));
    return claimPidFile(workspace, file);
  } catch (err) {
    throw writeRefused(err, PID_FILE, 'the daemon did not start');
  }
}

function claimPidFile(workspace: string, file: string): () => void {
  const mine: DaemonPid = { pid: process.pid, host: os.hostname(), start: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    if (createExclusive(file, JSON.stringify(mine) + '\n')) {
      return () => {
        if (readDaemonPid(workspace)?.pid === process.pid) fs.rmSync(file, { force: true });
      };
    }
    const other = readDaemonPid(workspace);
    if (other && other.host === mine.host && pidAlive(other.pid)) {
      throw new MemError(
        'DAEMON_RUNNING',
        `a daemon already runs on ${workspace} (pid ${other.pid}, since ${other.start}; ${PID_FILE}); stop it first`,
      );
    }
    if (!other) {
      // Being written by a daemon that just won the race, or empty: a live writer fills it within moments.
      const st = fs.statSync(file, { throwIfNoEntry: false });
      if (st && Date.now() - st.mtimeMs < 2_000)
        throw new MemError('DAEMON_RUNNING', `another daemon is starting on ${workspace} (${PID_FILE})`);
    }
    fs.rmSync(file, { force: true }); // Its process is gone: take over.
  }
  throw new MemError('DAEMON_RUNNING', `could not take ${PID_FILE}: another daemon keeps creating it`);
}
