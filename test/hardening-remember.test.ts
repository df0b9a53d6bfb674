/**
 * `mem remember` decides under the write lock (src/jobs/remember.ts): one statement said by several
 * processes at once under different titles is recorded once, and every run that found it already
 * there names the entry that holds it. (Different texts under one title: paths.test.ts, 8 × 50 in stress.)
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { entryIds, mem, tempDir } from './helpers/cli.js';
import { SAMPLE_SECRETS } from './fixtures/secrets/corpus.js';

const NOW = '2026-11-21T10:00:00Z';

test('the same text from concurrent runs under different titles: one entry, the others name it', async (t) => {
  const rounds = Number(process.env.MEM_STRESS_REMEMBER_SAME ?? 2);
  for (let round = 0; round < rounds; round++) {
    const ws = tempDir(t);
    await mem(['init', ws]);
    const runs = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        mem([
          '-C',
          ws,
          '--now',
          NOW,
          'remember',
          'The staging database is refreshed every Sunday night',
          '--title',
          `Staging refresh ${i}`,
        ]),
      ),
    );
    for (const r of runs) assert.equal(r.code, 0, r.stderr);
    const ids = entryIds(ws);
    assert.equal(ids.length, 1, `round ${round}: recorded more than once:\n${ids.join('\n')}`);
    const said = runs.map((r) => /(?:remembered|already remembered as) ([^\s;]+)/.exec(r.stdout)?.[1]);
    assert.deepEqual(
      new Set(said),
      new Set(ids),
      `every run names the one entry:\n${runs.map((r) => r.stdout).join('')}`,
    );
    assert.equal(runs.filter((r) => r.stdout.startsWith('remembered ')).length, 1);
  }
});

test('a hand-written daily file that is not UTF-8 (Latin-1) is never rewritten: remember and forget refuse with one line naming it; a folder named like a daily file is named too', async (t) => {
  const ws = tempDir(t);
  assert.equal((await mem(['init', ws])).code, 0);
  const latin1 = Buffer.from(
    '# 2026-11-21\n\n## Note: latin1 \xe9t\xe9 caf\xe9\n- id: NOTE-20261121-latin1\n- date: 2026-11-21\n- status: active\n',
    'latin1',
  );
  const daily = join(ws, 'memory', '2026-11-21.md');
  writeFileSync(daily, latin1);
  for (const args of [
    ['remember', 'Remember the latin1 test'],
    ['forget', 'NOTE-20261121-latin1'],
  ]) {
    const r = await mem(['-C', ws, ...args, '--now', '2026-11-21T12:00:00Z']);
    assert.equal(r.code, 1, r.stdout);
    assert.equal(
      r.stderr,
      'mem: cannot rewrite memory/2026-11-21.md: line 3 is not valid UTF-8; convert the file to UTF-8 (e.g. iconv -f latin1 -t utf-8) and run again; nothing was written\n',
    );
    assert.deepEqual(readFileSync(daily), latin1, 'byte for byte as it was');
  }
  mkdirSync(join(ws, 'memory', '2026-11-22.md'));
  const dir = await mem(['-C', ws, 'remember', 'Remember the folder test', '--now', '2026-11-22T12:00:00Z']);
  assert.equal(dir.code, 1);
  assert.equal(dir.stderr, 'mem: cannot write memory/2026-11-22.md: it is a folder, not a file; nothing was written\n');
});

test('--now with an offset no place on earth has (+99:00) is a usage error, and nothing is filed under a wrong day', async (t) => {
  const ws = tempDir(t);
  assert.equal((await mem(['init', ws])).code, 0);
  const r = await mem(['-C', ws, 'remember', 'Deploys happen on Tuesdays only', '--now', '2026-11-22T09:00:00+99:00']);
  assert.equal(r.code, 2, r.stdout);
  assert.equal(
    r.stderr,
    'mem: --now "2026-11-22T09:00:00+99:00" is not an ISO 8601 date or time (e.g. 2026-11-21T18:30 or 2026-11-21T18:30:00Z)\n',
  );
  assert.deepEqual(entryIds(ws), []);
  assert.equal(
    (await mem(['-C', ws, 'remember', 'Deploys happen on Tuesdays only', '--now', '2026-11-22T09:00:00+14:00'])).code,
    0,
    "Kiribati's +14:00 is real",
  );
});

test('an empty --now is an invalid date in every command (it was read as "now"); an empty MEM_NOW still means unset', async (t) => {
  const ws = tempDir(t);
  assert.equal((await mem(['init', ws])).code, 0);
  for (const args of [['remember', 'Deploys happen on Tuesdays only'], ['search', 'deploys'], ['index'], ['status']]) {
    const r = await mem(['-C', ws, '--now', '', ...args]);
    assert.equal(r.code, 2, `${args[0]}: ${r.stdout}`);
    assert.equal(
      r.stderr,
      'mem: --now "" is not an ISO 8601 date or time (e.g. 2026-11-21T18:30 or 2026-11-21T18:30:00Z)\n',
    );
  }
  assert.deepEqual(entryIds(ws), []);
  const unset = await mem(['-C', ws, 'remember', 'Deploys happen on Tuesdays only'], { env: { MEM_NOW: '' } });
  assert.equal(unset.code, 0, unset.stderr);
});

test('an invalid MEM_NOW is reported as MEM_NOW (it was called --now), on the commander and the lean paths; --now wins over it', async (t) => {
  const ws = tempDir(t);
  assert.equal((await mem(['init', ws])).code, 0);
  const env = { MEM_NOW: 'garbage' };
  for (const args of [['lint'], ['search', 'deploys'], ['index']]) {
    const r = await mem(['-C', ws, ...args], { env });
    assert.deepEqual(
      [r.code, r.stderr],
      [2, 'mem: MEM_NOW "garbage" is not an ISO 8601 date or time (e.g. 2026-11-21T18:30 or 2026-11-21T18:30:00Z)\n'],
      args[0],
    );
  }
  assert.equal((await mem(['-C', ws, '--now', '2026-11-22T09:00', 'lint'], { env })).code, 0);
});

test('a --key or --scope shaped like a secret is refused without echoing it (keys are written as they are); a newline in one stays a one-line error', async (t) => {
  const ws = tempDir(t);
  assert.equal((await mem(['init', ws])).code, 0);
  const token = SAMPLE_SECRETS.ghp;
  for (const [flag, value] of [
    ['--key', `decision:${token}`],
    ['--scope', `project:${token}`],
  ] as const) {
    const r = await mem(['-C', ws, '--now', NOW, 'remember', 'We rotate the deploy token monthly', flag, value]);
    assert.equal(r.code, 2, r.stdout);
    assert.equal(
      r.stderr,
      `mem: ${flag} holds something shaped like a secret (github-pat); a ${flag.slice(2)} is written to memory as it is: name the thing, not its value\n`,
    );
  }
  for (const [flag, value, want] of [
    ['--key', 'decision:a\nb', '"decision:a\\nb" is not a typed key'],
    ['--scope', 'project:a\nb', '"project:a\\nb" is not global'],
  ] as const) {
    const r = await mem(['-C', ws, '--now', NOW, 'remember', 'We rotate the deploy token monthly', flag, value]);
    assert.equal(r.code, 2, r.stdout);
    assert.equal(r.stderr.split('\n').length, 2, `one line: ${r.stderr}`);
    assert.ok(r.stderr.includes(`${flag} ${want}`), r.stderr);
  }
  assert.deepEqual(entryIds(ws), [], 'nothing written');
});

test('mem import checks --scope as remember does: a newline in it no longer breaks the entry it wrote', async (t) => {
  const ws = tempDir(t);
  assert.equal((await mem(['init', ws])).code, 0);
  const dir = join(tempDir(t), 'my shop');
  mkdirSync(dir);
  writeFileSync(join(dir, 'CLAUDE.md'), '# Notes\n- Always use pnpm for installs\n');
  const bad = await mem([
    '-C',
    ws,
    '--now',
    NOW,
    'import',
    'claude-md',
    join(dir, 'CLAUDE.md'),
    '--scope',
    'bad scope\nx',
  ]);
  assert.equal(bad.code, 2, bad.stdout);
  assert.equal(bad.stderr, 'mem: --scope "bad scope\\nx" is not global, project:<name> or lang:<name>\n');
  assert.deepEqual(entryIds(ws), []);
  const ok = await mem(['-C', ws, '--now', NOW, 'import', 'claude-md', join(dir, 'CLAUDE.md')]);
  assert.equal(ok.code, 0, ok.stderr);
  assert.match(
    readFileSync(join(ws, 'memory', '2026-11-21.md'), 'utf8'),
    /^- scope: project:my-shop$/m,
    'a folder name with a space makes a valid scope',
  );
  // The default scope from a folder named like a key, or holding a control character.
  const token = SAMPLE_SECRETS.openaiProj;
  for (const name of [token, 'ctl\x01x']) {
    const odd = join(tempDir(t), name);
    mkdirSync(odd);
    writeFileSync(join(odd, 'CLAUDE.md'), `# Notes\n- Deploys from ${name.length} on Fridays are frozen\n`);
    const r = await mem(['-C', ws, '--now', NOW, 'import', 'claude-md', join(odd, 'CLAUDE.md')]);
    assert.equal(r.code, 0, r.stderr);
  }
  const daily = readFileSync(join(ws, 'memory', '2026-11-21.md'), 'utf8');
  assert.ok(!daily.includes(token.slice(0, 20)), 'no part of the key in memory');
  assert.match(daily, /^- scope: project:\[REDACTED:openai-key\]$/m);
  assert.match(daily, /^- scope: project:ctl-x$/m);
  assert.equal((await mem(['-C', ws, 'lint', '--secrets'])).code, 0);
});
