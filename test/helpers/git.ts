/**
 * git for tests: a fixed identity and no user or system configuration (a developer's hooks, signing
 * or default branch never leak into a test repository), run as a real child process.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';

export const GIT_ENV = {
  GIT_AUTHOR_NAME: 'Tester',
  GIT_AUTHOR_EMAIL: 't@example.com',
  GIT_COMMITTER_NAME: 'Tester',
  GIT_COMMITTER_EMAIL: 't@example.com',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
};

/** `git args` in `cwd`: its exit code and its stdout then stderr. */
export function git(cwd: string, ...args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, env: { ...process.env, ...GIT_ENV } }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}` });
    });
  });
}

/** `git args` that must succeed: its output. */
export async function gitOk(cwd: string, ...args: string[]): Promise<string> {
  const r = await git(cwd, ...args);
  assert.equal(r.code, 0, `git ${args.join(' ')}: ${r.out}`);
  return r.out;
}
