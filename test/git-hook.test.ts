/** `mem init --git` installs a pre-commit hook that refuses a commit holding a secret (real git repo). */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { test } from 'node:test';
import { SECRET_SAMPLES } from './fixtures/secrets/corpus.js';
import { childEnv, mem, tempDir } from './helpers/cli.js';

const run = promisify(execFile);
const git = (cwd: string, ...args: string[]) =>
  run('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.test', ...args], { cwd, env: childEnv() }).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );

test('a commit holding a secret is refused; a clean one passes; a foreign hook is left alone', async (t) => {
  const ws = tempDir(t);
  const r = await mem(['init', ws, '--git']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /pre-commit hook installed: .*pre-commit runs "mem lint --secrets"/);
  assert.equal((await git(ws, 'add', '-A')).code, 0);
  assert.equal((await git(ws, 'commit', '-qm', 'init')).code, 0, 'a clean workspace commits');

  const secret = SECRET_SAMPLES.find((s) => s.kind === 'github-pat')!;
  writeFileSync(join(ws, 'memory', 'projects', 'notes.md'), `# Notes\n\n${secret.text}\n`);
  await git(ws, 'add', '-A');
  const refused = await git(ws, 'commit', '-qm', 'notes');
  assert.notEqual(refused.code, 0);
  assert.match(refused.stderr, /memory\/projects\/notes\.md:3: looks like a secret \(github-pat\)/);
  assert.match(refused.stderr, /memfold: a secret is about to be committed/);
  assert.ok(!refused.stderr.includes(secret.secret), 'the hook never prints the value');
  assert.equal((await git(ws, 'log', '--oneline')).stdout.trim().split('\n').length, 1);

  writeFileSync(join(ws, 'memory', 'projects', 'notes.md'), '# Notes\n\nThe CI token lives in the vault.\n');
  await git(ws, 'add', '-A');
  assert.equal((await git(ws, 'commit', '-qm', 'notes')).code, 0);

  // Running it again keeps one hook; a hook the user wrote is never replaced.
  assert.match((await mem(['init', ws, '--git'])).stdout, /pre-commit hook already in place/);
  const hook = join(ws, '.git', 'hooks', 'pre-commit');
  writeFileSync(hook, '#!/bin/sh\nexit 0\n');
  const foreign = await mem(['init', ws, '--git']);
  assert.match(
    foreign.stderr,
    /exists and is not memfold's; to scan for secrets before each commit, add this line to it/,
  );
  assert.equal(readFileSync(hook, 'utf8'), '#!/bin/sh\nexit 0\n');
  assert.ok(existsSync(hook));
});
