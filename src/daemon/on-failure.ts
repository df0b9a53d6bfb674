/**
 * The `onFailure` notification hook: a shell command from the config, run with the job name and the
 * failure message as its two arguments ("$1", "$2") and as MEM_JOB / MEM_FAILURE. The values are
 * passed as arguments, never pasted into the command line, so a message can not inject shell code.
 * The hook is bounded (killed after `timeoutMs`) and its failure is only a warning.
 */
export interface HookResult {
  code: number | null;
  timedOut: boolean;
  error?: string;
}

export async function runOnFailure(
  command: string,
  job: string,
  message: string,
  cwd: string,
  timeoutMs = 30_000,
): Promise<HookResult> {
  // Loaded on first use: every job loads this module, and few ever fail.
  const { spawn } = await import('node:child_process');
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', `${command} "$@"`, 'mem-on-failure', job, message], {
      cwd,
      env: { ...process.env, MEM_JOB: job, MEM_FAILURE: message },
      stdio: 'ignore',
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      resolve({ code: null, timedOut, error: err.message });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, timedOut });
    });
  });
}
