/**
 * The pre-commit hook of `mem init --git` where the workspace is not the repository root (real git
 * repos in temp dirs): it lands in the enclosing repo's hooks folder (or core.hooksPath), scans every
 * workspace set up in that repo, and a scan that cannot run stops the commit with its own message.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
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
const secret = SECRET_SAMPLES.find((s) => s.kind === 'github-pat')!;
const commits = async (repo: string) => (await git(repo, 'log', '--oneline')).stdout.trim().split('\n').length;

async function commitAll(repo: string, msg: string) {
  assert.equal((await git(repo, 'add', '-A')).code, 0);
  return git(repo, 'commit', '-qm', msg);
}

test('workspaces inside a larger repo: one hook in its .git/hooks scans each of them', async (t) => {
  const repo = tempDir(t);
  assert.equal((await git(repo, 'init', '-q')).code, 0);
  writeFileSync(join(repo, 'app.js'), 'console.log(1);\n');
  assert.equal((await commitAll(repo, 'app')).code, 0);

  const a = join(repo, 'agent', 'memory');
  const first = await mem(['init', a, '--git']);
  assert.equal(first.code, 0, first.stderr);
  const hook = join(repo, '.git', 'hooks', 'pre-commit');
  assert.match(
    first.stdout,
    new RegExp(`pre-commit hook installed: ${hook.replaceAll('/', '\\/')} runs "mem lint --secrets"`),
  );
  assert.ok(!existsSync(join(a, '.git')), 'no nested repository');
  assert.equal((await commitAll(repo, 'memory')).code, 0, 'a clean workspace commits');

  // A second workspace in the same repository joins the same hook.
  const b = join(repo, 'other', 'mem');
  const second = await mem(['init', b, '--git']);
  assert.match(second.stdout, /pre-commit hook updated: .* now also runs "mem lint --secrets" on .*other\/mem/);
  assert.match((await mem(['init', b, '--git'])).stdout, /pre-commit hook already in place/);
  assert.equal((await commitAll(repo, 'second workspace')).code, 0);
  for (const ws of [a, b]) {
    writeFileSync(join(ws, 'memory', 'projects', 'notes.md'), `# Notes\n\n${secret.text}\n`);
    const refused = await commitAll(repo, 'notes');
    assert.notEqual(refused.code, 0, `${ws}: refused`);
    assert.match(refused.stderr, /memory\/projects\/notes\.md:3: looks like a secret \(github-pat\)/);
    assert.match(refused.stderr, /memfold: a secret is about to be committed/);
    writeFileSync(join(ws, 'memory', 'projects', 'notes.md'), '# Notes\n\nThe token lives in the vault.\n');
  }
  assert.equal((await commitAll(repo, 'clean notes')).code, 0);
  assert.equal(await commits(repo), 4);

  // The workspace moved away: the scan cannot run, and the commit stops saying so (not "a secret").
  renameSync(b, join(repo, 'other', 'moved'));
  const moved = await commitAll(repo, 'moved');
  assert.notEqual(moved.code, 0);
  assert.match(moved.stderr, /memfold: the secret scan could not run \(exit 4, see above\)/);
  assert.doesNotMatch(moved.stderr, /a secret is about to be committed/);
  assert.equal(
    readFileSync(hook, 'utf8')
      .split('\n')
      .filter((l) => l.includes(' -q lint --secrets;')).length,
    2,
    'one line per workspace',
  );
});

test('core.hooksPath is honoured', async (t) => {
  const repo = tempDir(t);
  await git(repo, 'init', '-q');
  await git(repo, 'config', 'core.hooksPath', '.githooks');
  mkdirSync(join(repo, '.githooks'));
  const r = await mem(['init', join(repo, 'ws'), '--git']);
  assert.match(r.stdout, /pre-commit hook installed: .*\/\.githooks\/pre-commit/);
  assert.ok(!existsSync(join(repo, '.git', 'hooks', 'pre-commit')));
  writeFileSync(join(repo, 'ws', 'MEMORY.md'), `# Memory\n\n${secret.text}\n`);
  assert.notEqual((await commitAll(repo, 'secret')).code, 0);
});
