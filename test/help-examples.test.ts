/**
 * The examples in `mem --help` and each command's `--help` run on the bundled example, as
 * `npm run demo` leaves it: every one exits 0, and every search example finds something. The same
 * help texts (no extra runs) state each option's default once, and -C every place a workspace comes from. Examples
 * that name a folder of the reader's (`~/…`), install, serve or watch are not run here; `| jq …`
 * and `> file` tails are cut (jq may be missing).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { test } from 'node:test';
import { childEnv, exampleWorkspace, mem, ROOT } from './helpers/cli.js';

const NOW = '2026-11-22T09:00:00Z';
/** Order matters: forget before restore, so there is a forgotten entry to restore. */
const COMMANDS = [
  '',
  'microsync',
  'wrapup',
  'compound',
  'archive',
  'search',
  'get',
  'source',
  'trace',
  'context',
  'tick',
  'lint',
  'status',
  'export',
  'index',
  'forget',
  'restore',
  'remember',
];
const NOT_RUN = /~|\s--hard\b|^mem (?:init|daemon|watch|mcp|schedule)\b/;

function examples(help: string): string[] {
  const block = /\nExamples:\n((?: {2}mem .*\n?)+)/.exec(help)?.[1] ?? '';
  return block
    .split('\n')
    .map((line) =>
      line
        .trim()
        .replace(/\s+#.*$/, '')
        .replace(/\s[|>]\s.*$/, ''),
    )
    .filter((line) => line.startsWith('mem '));
}

test('every example in the help texts runs on the bundled example; the texts state each default once', async (t) => {
  const { root, ws } = exampleWorkspace(t);
  const env = childEnv({ MEM_WORKSPACE: ws, MEM_NOW: NOW, MEM_SEARCH_SERVER: 'off' });
  assert.equal((await mem(['microsync', '--since', 'all'], { env })).code, 0);
  // `mem` on PATH, as a reader who ran `npm link` has it.
  const bin = join(root, 'bin');
  spawnSync('mkdir', [bin]);
  writeFileSync(join(bin, 'mem'), `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, 'bin', 'mem.cjs')}" "$@"\n`);
  chmodSync(join(bin, 'mem'), 0o755);
  const shellEnv = { ...env, PATH: `${bin}${delimiter}${env.PATH ?? ''}` };
  let ran = 0;
  for (const command of COMMANDS) {
    const help = await mem(command ? [command, '--help'] : ['--help'], { env });
    assert.equal(help.code, 0, help.stderr);
    if (!command)
      assert.match(
        help.stdout.replace(/\s+/g, ' '),
        /-C, --workspace <dir> workspace folder \(default: \$MEM_WORKSPACE, else the nearest folder above holding mem\.config\.json, else defaultWorkspace in the user-level config\)/,
      );
    for (const option of help.stdout.replace(/\n {4,}/g, ' ').split('\n'))
      assert.ok(
        (option.match(/\bdefault\b/g) ?? []).length <= 1,
        `a default stated twice in "mem ${command} --help": ${option}`,
      );
    const lines = examples(help.stdout);
    assert.ok(lines.length > 0, `no examples in "mem ${command} --help"`);
    for (const line of lines.filter((l) => !NOT_RUN.test(l))) {
      const r = spawnSync('sh', ['-c', line], { cwd: root, env: shellEnv, encoding: 'utf8', timeout: 60_000 });
      assert.equal(r.status, 0, `${line}\n${r.stderr}`);
      if (/^mem search\b/.test(line)) {
        const found = line.includes('--json')
          ? (JSON.parse(r.stdout) as { results: unknown[] }).results.length > 0
          : !r.stdout.startsWith('no results');
        assert.ok(found, `${line} finds nothing:\n${r.stdout}`);
      }
      ran++;
    }
  }
  assert.ok(ran >= 25, `only ${ran} examples ran`);
});
