/**
 * Hostile names never write outside the workspace: titles, keys and scopes with `..`, absolute
 * paths, very long or reserved names (NUL cannot reach argv; the writer refuses it, see workspace.test.ts);
 * and many concurrent `mem remember` runs lose
 * nothing (MEM_STRESS_REMEMBER=8x50 for the stress run). Things in the memory folder that are not
 * files (a FIFO, a symlink loop, a dangling link, all named `*.md`) neither hang nor fail a command.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { entryIds, exampleWorkspace, mem, snapshot, tempDir } from './helpers/cli.js';

const NOW = '2026-11-21T10:00:00Z';

test('titles like paths, long and reserved names land as ids in the daily file, nowhere else', async (t) => {
  const root = tempDir(t);
  const ws = join(root, 'ws');
  mkdirSync(ws);
  await mem(['init', ws]);
  const before = new Set(snapshot(root, () => false).keys());
  // ('..' alone has no words: refused, as remember refuses any title of punctuation only; workspace.test.ts.)
  const titles = [
    '../../../etc/cron.d/pwn',
    '/etc/passwd',
    'C:\\Windows\\System32\\drivers',
    'CON',
    'NUL.txt',
    '.git/hooks/pre-commit',
    'x'.repeat(600),
    '../x',
    '记住 ../../秘密',
  ];
  for (const title of titles) {
    const r = await mem(['-C', ws, '--now', NOW, 'remember', `About ${title.slice(0, 40)}`, '--title', title]);
    assert.equal(r.code, 0, `${title}: ${r.stderr}`);
  }
  const after = [...snapshot(root, () => false).keys()].filter((f) => !before.has(f));
  assert.ok(
    after.every((f) => f === 'ws/memory/2026-11-21.md' || f.startsWith('ws/.mem/')),
    after.join('\n'),
  );
  const ids = entryIds(ws);
  assert.equal(ids.length, titles.length);
  assert.ok(
    ids.every(
      (id) => /^NOTE-20261121-[\p{L}\p{N}-]{1,60}(?:-\d+)?$/u.test(id) && !id.includes('..') && !id.includes('/'),
    ),
    ids.join('\n'),
  );

  for (const [flag, value] of [
    ['--key', 'a key with spaces'],
    ['--key', '../../etc'],
    ['--scope', '/abs/path'],
    ['--key', 'k'.repeat(300)],
  ] as const) {
    const r = await mem(['-C', ws, '--now', NOW, 'remember', 'bad key', flag, value]);
    assert.equal(r.code, 2, `${flag} ${JSON.stringify(value)}: ${r.stderr}`);
    assert.match(r.stderr, /^mem: [^\n]+\n$/);
  }
});

test('concurrent remember runs: every entry once', async (t) => {
  const [procs, each] = (process.env.MEM_STRESS_REMEMBER ?? '4x5').split('x').map(Number) as [number, number];
  const ws = tempDir(t);
  await mem(['init', ws]);
  const chain = async (p: number) => {
    for (let i = 0; i < each; i++) {
      const r = await mem([
        '-C',
        ws,
        '--now',
        NOW,
        'remember',
        `Process ${p} fact ${i}`,
        '--title',
        'Same title for all',
      ]);
      assert.equal(r.code, 0, r.stderr);
    }
  };
  await Promise.all(Array.from({ length: procs }, (_, p) => chain(p)));
  const ids = entryIds(ws);
  assert.equal(ids.length, procs * each, ids.join('\n'));
  assert.equal(new Set(ids).size, ids.length, 'same title, different text: distinct -2, -3, ... ids');
  t.diagnostic(`${procs} processes × ${each} remember calls → ${ids.length} entries`);
});

test(
  'a FIFO, a symlink loop and a dangling link named *.md are left out by every reader: nothing hangs or fails',
  { skip: process.platform === 'win32' ? 'no FIFOs or POSIX symlinks' : false },
  async (t) => {
    const { ws } = exampleWorkspace(t);
    const NOW_EX = '2026-11-22T09:00:00Z';
    assert.equal((await mem(['-C', ws, '--now', NOW_EX, 'microsync', '--since', 'all'])).code, 0);
    const ids = entryIds(ws);
    assert.ok(ids.length > 0);
    execFileSync('mkfifo', [join(ws, 'memory', 'fifo.md')]);
    execFileSync('mkfifo', [join(ws, 'memory', 'archive', 'weekly-2026-W47.md')]);
    symlinkSync('loop.md', join(ws, 'memory', 'loop.md'));
    symlinkSync(join(ws, 'nowhere.md'), join(ws, 'memory', 'dangling.md'));
    const daily = readFileSync(join(ws, 'memory', '2026-11-20.md'), 'utf8');
    for (const args of [
      ['index'],
      ['search', 'postgresql'],
      ['lint'],
      ['get', ids[0]!],
      ['trace', ids[0]!],
      ['context'],
      ['export'],
      ['tick'],
      ['status'],
      ['compound', '--dry-run'],
      ['index', '--rebuild'],
    ]) {
      const r = await mem(['-C', ws, '--now', NOW_EX, ...args]);
      assert.ok(
        r.code === 0 || (args[0] === 'lint' && r.code === 1),
        `mem ${args.join(' ')} exited ${r.code}: ${r.stderr}`,
      );
      assert.doesNotMatch(r.stderr, /ELOOP|EISDIR|\n\s+at /, `mem ${args.join(' ')}`);
    }
    const found = JSON.parse((await mem(['-C', ws, '--now', NOW_EX, '--json', 'search', 'postgresql'])).stdout);
    assert.ok(found.results.length > 0, 'the real files are still searched');
    assert.equal(readFileSync(join(ws, 'memory', '2026-11-20.md'), 'utf8'), daily, 'nothing rewritten');
  },
);
