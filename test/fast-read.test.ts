/**
 * The fast path of `mem get`, `mem trace` and `mem context` (src/cli/lean-read.ts, dist/cli/read.cjs):
 * routed from the one option table (options.ts) that commander registers too, answering byte for
 * byte as the full CLI does (both run read-commands.ts), and loading neither commander nor zod nor
 * the ES-module CLI.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fastRoute } from '../src/cli/fast-args.js';
import { mem, tempDir } from './helpers/cli.js';
import { loadRecorder } from './helpers/loaded.js';
import { daily, entry, workspace } from './fixtures/governance/workspace.js';

const D = '2026-11-20';
const RULE = 'RULE-20261120-deploy-on-tuesdays';
const OLD = 'DECISION-20261120-cache-in-redis';
const NEW = 'DECISION-20261121-cache-in-process';

function fixture(t: { after(fn: () => void): void }): string {
  return workspace(t, {
    [`memory/${D}.md`]: daily(D, [
      entry({
        id: RULE,
        title: 'Deploy on Tuesdays',
        date: D,
        fields: { conclusion: 'deploys happen on Tuesdays only', scope: 'project:shop' },
      }),
      entry({
        id: OLD,
        title: 'Cache in Redis',
        date: D,
        fields: { conclusion: 'we cache in Redis', scope: 'project:shop', status: 'superseded' },
      }),
    ]),
    'memory/2026-11-21.md': daily('2026-11-21', [
      entry({
        id: NEW,
        title: 'Cache in process',
        date: '2026-11-21',
        fields: { conclusion: 'an LRU', scope: 'project:shop', supersedes: OLD },
      }),
    ]),
  });
}

test('the fast route takes get, trace, context and status with their options (defaults as commander fills them) and leaves the rest to commander', () => {
  assert.deepEqual(fastRoute(['-C', 'ws', 'get', RULE, '--json'], {}), {
    command: 'get',
    global: { workspace: 'ws', json: true },
    words: [RULE],
    flags: {},
  });
  assert.deepEqual(fastRoute(['context', '--scope', 'project:shop', '-v'], {}), {
    command: 'context',
    global: { verbose: true },
    words: [],
    flags: { scope: 'project:shop', format: 'md' },
  });
  assert.deepEqual(fastRoute(['--now', '2026-11-22T10:00:00Z', 'trace', OLD], {})?.global, {
    now: '2026-11-22T10:00:00Z',
  });
  assert.deepEqual(fastRoute(['status', '--strict', '-q'], {}), {
    command: 'status',
    global: { quiet: true },
    words: [],
    flags: { strict: true },
  });
  for (const args of [
    ['get'],
    ['get', 'a', 'b'],
    ['get', RULE, '--deep'],
    ['context', 'x'],
    ['context', '--budget'],
    ['context', '-h'],
    ['trace', '--help'],
    ['status', 'x'],
    ['status', '--deep'],
    ['doctor'],
    ['--', 'get', RULE],
    ['-C'],
  ]) {
    assert.equal(fastRoute(args, {}), undefined, args.join(' '));
  }
  assert.equal(fastRoute(['get', RULE], { MEM_LEAN_CLI: '0' }), undefined);
});

test('fast and full CLI answer alike for get, trace, context and status, errors included', async (t) => {
  const ws = fixture(t);
  const cwd = join(tempDir(t), 'shop');
  const { mkdirSync } = await import('node:fs');
  mkdirSync(cwd);
  const both = async (args: string[]) => {
    const fast = await mem(args, { cwd });
    const full = await mem(args, { cwd, env: { MEM_LEAN_CLI: '0' } });
    assert.deepEqual(
      { code: fast.code, stdout: fast.stdout, stderr: fast.stderr },
      { code: full.code, stdout: full.stdout, stderr: full.stderr },
      `mem ${args.join(' ')}`,
    );
    return fast;
  };
  const base = ['-C', ws, '--now', '2026-11-22T10:00:00Z'];
  assert.equal((await both([...base, 'get', RULE])).code, 0);
  await both([...base, '--json', 'get', NEW]);
  assert.notEqual((await both([...base, 'get', 'RULE-20990101-nope'])).code, 0);
  await both([...base, '--json', 'trace', OLD]);
  await both([...base, 'trace', NEW]);
  const pack = await both([...base, 'context', '-v']);
  assert.match(pack.stdout, new RegExp(RULE));
  assert.match(pack.stderr, /context: \d+ items/);
  await both([...base, 'context', '--format', 'json', '--budget', '300']);
  assert.notEqual((await both([...base, 'context', '--budget', '10'])).code, 0);
  assert.notEqual((await both([...base, 'context', '--format', 'yaml'])).code, 0);
  assert.match((await both([...base, 'status'])).stdout, /governance/);
  await both([...base, '--json', 'status']);
  await both([...base, 'status', '--strict']);
  writeFileSync(join(ws, 'mem.config.json'), '{"timezone": "Mars/Olympus"}');
  assert.notEqual((await both([...base, 'get', RULE])).code, 0);
});

test('a fast get, context, trace and status load no commander, zod or ES-module CLI; get and context without --now no luxon or lock library', async (t) => {
  const ws = fixture(t);
  const rec = loadRecorder(tempDir(t, 'memfold-read-hook-'));
  for (const args of [['get', RULE], ['context', '--scope', 'project:shop'], ['trace', OLD], ['status']]) {
    const r = await mem(['-C', ws, ...args], { env: rec.env });
    assert.equal(r.code, 0, r.stderr);
    const loaded = rec.take();
    assert.match(
      loaded,
      args[0] === 'status' ? /dist\/cli\/status\.cjs/ : /dist\/cli\/read\.cjs/,
      `${args[0]}: answered by its bundle`,
    );
    if (args[0] === 'status')
      assert.doesNotMatch(
        loaded,
        /dist\/cli\/read\.cjs|node_modules\/(gray-matter|proper-lockfile)\//,
        'status: nothing of the read bundle, no transcript reader or lock library',
      );
    assert.doesNotMatch(loaded, /dist\/cli\/(entry|main)\.js/, `${args[0]}: not by the ES-module CLI`);
    for (const pkg of ['commander', 'zod'])
      assert.doesNotMatch(loaded, new RegExp(`node_modules/${pkg}/`), `${args[0]} loaded ${pkg}`);
    // Their moment is the clock's (core/instant.ts) and their one write an append to the use log.
    if (args[0] === 'get' || args[0] === 'context')
      for (const pkg of ['luxon', 'proper-lockfile'])
        assert.doesNotMatch(loaded, new RegExp(`node_modules/${pkg}/`), `${args[0]} loaded ${pkg}`);
  }
  // A given moment is parsed as every command parses one, and dates the use log.
  const dated = await mem(['-C', ws, '--now', '2026-11-21T18:30:00Z', 'get', RULE], { env: rec.env });
  assert.equal(dated.code, 0, dated.stderr);
  assert.match(rec.take(), /node_modules\/luxon\//);
  assert.match(
    readFileSync(join(ws, '.mem', 'usage.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .at(-1)!,
    /"t":"2026-11-21T18:30:00Z","kind":"access","via":"get"/,
  );
});

test('mem --help off a terminal prints the text commander printed at build time, without loading commander', async (t) => {
  const rec = loadRecorder(tempDir(t, 'memfold-help-hook-'));
  for (const flag of ['--help', '-h']) {
    const fast = await mem([flag], { env: rec.env });
    const loaded = rec.take();
    const full = await mem([flag], { env: { MEM_LEAN_CLI: '0' } });
    assert.deepEqual(
      { code: fast.code, stdout: fast.stdout, stderr: fast.stderr },
      { code: full.code, stdout: full.stdout, stderr: full.stderr },
      flag,
    );
    assert.match(fast.stdout, /^Usage: mem /);
    assert.doesNotMatch(loaded, /node_modules\/commander\/|dist\/cli\/(entry|main)\.js/, `${flag}: commander loaded`);
  }
});
