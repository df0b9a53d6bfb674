/**
 * Running the crontab command (`crontab -l`, `crontab -`) through /bin/sh, so a machine without one
 * is told apart (exit 127). Apart from install.ts so `mem status`, which only reads the crontab
 * (installed.ts), loads none of the installer's luxon and writer code (about 20 ms).
 */
import { spawn } from 'node:child_process';
import { MemError } from '../core/errors.js';

export function sh(
  command: string,
  args: string[],
  input?: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', `${command} "$@"`, 'mem-schedule', ...args], {
      // No input (`crontab -l`): no pipe, so nothing to fail when the child is gone before it reads (a
      // missing crontab command; the EPIPE cost up to 14 ms of a `mem status`).
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    // A crontab command that exits without reading its input must not crash us (EPIPE): its exit code tells.
    if (input === undefined) return;
    child.stdin!.on('error', () => {});
    child.stdin!.end(input);
  });
}

export async function readCrontab(cmd: string): Promise<string> {
  const r = await sh(cmd, ['-l']);
  if (r.code === 0) return r.stdout;
  if (/no crontab/i.test(r.stderr)) return '';
  // The shell's "command not found": a machine without cron (a container, a minimal install).
  if (r.code === 127)
    throw new MemError(
      'IO',
      `no crontab command on this machine ("${cmd}" not found): run "mem daemon" instead, which runs the same schedule while it runs`,
    );
  throw new MemError('IO', `"${cmd} -l" failed (exit ${r.code}): ${r.stderr.trim() || 'no message'}`);
}

export async function writeCrontab(cmd: string, text: string): Promise<void> {
  const r = await sh(cmd, ['-'], text);
  if (r.code !== 0) throw new MemError('IO', `"${cmd} -" failed (exit ${r.code}): ${r.stderr.trim() || 'no message'}`);
}
