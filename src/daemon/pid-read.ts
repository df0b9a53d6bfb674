/**
 * Reading `.mem/daemon.pid` (pidfile.ts creates and removes it): which daemon runs this workspace.
 * Apart from the writer so `mem status` loads neither it nor the locks to show the daemon.
 *
 * Invariant: a missing, torn or foreign pid file reads as no daemon, never as an error.
 */
import fs from 'node:fs';
import path from 'node:path';

export const PID_FILE = '.mem/daemon.pid';

export interface DaemonPid {
  pid: number;
  host: string;
  start: string;
}

export function readDaemonPid(workspace: string): DaemonPid | undefined {
  try {
    const v = JSON.parse(fs.readFileSync(path.join(workspace, PID_FILE), 'utf8')) as DaemonPid;
    return typeof v.pid === 'number' ? v : undefined;
  } catch {
    return undefined;
  }
}
