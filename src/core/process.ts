/** Whether a process is still the one that was: by pid, and by start time where /proc tells it. */
import { readFileSync } from 'node:fs';

/** Whether a process with this pid is running (EPERM: it runs, as another user). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * When the process started, as the kernel counts it (/proc/<pid>/stat, field 22), or undefined where
 * there is no /proc. With the pid it names one process for good: a pid reused by a later process has
 * another start.
 */
export function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count fields after its last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** Whether the process `pid` that started at `start` (processStart) has ended, its pid free or reused. */
export function processGone(pid: number, start: string | undefined): boolean {
  if (!pidAlive(pid)) return true;
  const now = processStart(pid);
  return start !== undefined && now !== undefined && now !== start;
}

/** When `pid` started, in ms since the epoch (boot time + start ticks at the usual 100 per second), or undefined without /proc. */
export function processStartedAt(pid: number): number | undefined {
  const ticks = Number(processStart(pid));
  if (!Number.isFinite(ticks)) return undefined;
  try {
    const btime = Number(/^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1]);
    return Number.isFinite(btime) ? btime * 1000 + ticks * 10 : undefined;
  } catch {
    return undefined;
  }
}
