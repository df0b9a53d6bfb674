/**
 * The README's shell examples run as a reader runs them (issue 31 item 10): every `mem …` and `cd …`
 * line of its ```sh blocks, in order, in one sandbox: the bundled example as the workspace
 * (MEM_WORKSPACE, after `npm run demo`'s microsync), a fresh HOME holding Claude Code transcripts for
 * `mem init ~/memory --detect --write`, `~/code/shop` for the project-folder example. Each exits 0 and
 * each search finds something. `npm …` lines (the quick start, development) are the README test
 * command's own business; `| jq …` tails are cut (jq may be missing), as in help-examples.test.ts.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { test } from 'node:test';
import { childEnv, exampleWorkspace, mem, ROOT } from './helpers/cli.js';

/** The `mem`/`cd` lines of the README's sh blocks, comments and `| …` tails cut. */
function readmeLines(): string[] {
  const text = readFileSync(join(ROOT, 'README.md'), 'utf8');
  return [...text.matchAll(/```sh\n([\s\S]*?)```/g)]
    .flatMap((m) => m[1]!.split('\n'))
    .map((line) =>
      line
        .replace(/\s+#.*$/, '')
        .replace(/\s\|\s.*$/, '')
        .trim(),
    )
    .filter((line) => /^(mem|cd) /.test(line));
}

test('every mem example of the README runs on the bundled example and every search finds something', async (t) => {
  const { root, ws } = exampleWorkspace(t);
  const home = join(root, 'home');
  cpSync(join(ROOT, 'fixtures', 'transcripts', 'claude-code'), join(home, '.claude', 'projects'), { recursive: true });
  mkdirSync(join(home, 'code', 'shop'), { recursive: true });
  const bin = join(root, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'mem'), `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, 'bin', 'mem.cjs')}" "$@"\n`);
  chmodSync(join(bin, 'mem'), 0o755);
  const git = {
    GIT_AUTHOR_NAME: 'Reader',
    GIT_AUTHOR_EMAIL: 'reader@example.com',
    GIT_COMMITTER_NAME: 'Reader',
    GIT_COMMITTER_EMAIL: 'reader@example.com',
  };
  const env = childEnv({
    HOME: home,
    XDG_CONFIG_HOME: undefined,
    MEM_WORKSPACE: ws,
    MEM_NOW: '2026-11-22T09:00:00Z',
    MEM_SEARCH_SERVER: 'off',
    ...git,
  });
  assert.equal((await mem(['microsync', '--since', 'all'], { env })).code, 0);
  const lines = readmeLines();
  assert.ok(lines.length >= 12, `only ${lines.length} README examples`);
  for (const line of lines) {
    const r = spawnSync('sh', ['-c', line], {
      cwd: ws,
      env: { ...env, PATH: `${bin}${delimiter}${env.PATH ?? ''}` },
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(r.status, 0, `${line}\n${r.stderr}`);
    if (/\bmem search\b/.test(line))
      assert.ok(!/^no results/m.test(r.stdout) && r.stdout.trim(), `${line} finds nothing:\n${r.stdout}`);
  }
});
