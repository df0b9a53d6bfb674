/**
 * Hostile paths beyond titles (paths.test.ts): NUL bytes where argv cannot carry them (the MCP
 * memory_remember path, config JSON), `..` and absolute paths and over-long names in config
 * `sources[].path` / `extraPaths`, hostile ids for the id commands, and a workspace name over 255
 * bytes. Nothing is written outside the workspace, and a failure is one line, never a stack trace.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { DateTime } from 'luxon';
import { loadConfig } from '../src/config/load.js';
import { parseBlocks, serializeBlocks } from '../src/entries/parse.js';
import { runRemember } from '../src/jobs/remember.js';
import { editConfig, entryIds, exampleWorkspace, mem, snapshot, tempDir } from './helpers/cli.js';

const NOW = '2026-11-21T10:00:00Z';

function oneLine(r: { code: number | null; stderr: string }, what: string): void {
  assert.doesNotMatch(r.stderr, /\n\s+at |TypeError/, `${what}: no stack trace`);
  if (r.code !== 0) assert.match(r.stderr, /^mem: [^\n]+\n$/m, `${what}: one error line`);
}

test('NUL bytes, path-like and over-long titles, keys and scopes from an agent (memory_remember path)', async (t) => {
  const root = tempDir(t);
  const ws = join(root, 'ws');
  mkdirSync(ws);
  await mem(['init', ws]);
  const before = new Set(snapshot(root, () => false).keys());
  const loaded = loadConfig(ws);
  const now = DateTime.fromISO(NOW, { zone: 'utc' });
  const agent = { origin: 'agent' as const, source: { sessionId: 'mcp-test', sessionPath: 'mcp:memory_remember' } };
  const accepted = [
    { text: 'NUL\0inside the text', title: '../\0/etc/x' },
    { text: 'A title of NUL bytes only', title: '\0'.repeat(300) },
    { text: 'A title over 255 bytes', title: '秘'.repeat(200) },
  ];
  for (const a of accepted) {
    const r = await runRemember({ workspace: ws, loaded, now, ...a, ...agent });
    assert.equal(r.added, true, JSON.stringify(a));
    assert.ok(!r.id.includes('\0') && !r.id.includes('/') && Buffer.byteLength(r.id) <= 255, r.id);
  }
  for (const bad of [
    { key: 'pref:a\0b' },
    { key: '../../etc/passwd' },
    { scope: 'project:\0x' },
    { scope: '/abs' },
    { kind: '../rule' },
  ]) {
    await assert.rejects(
      runRemember({ workspace: ws, loaded, now, text: 'refused', ...bad, ...agent }),
      (e: Error & { code?: string }) => e.name === 'MemError' && e.code === 'USAGE',
      JSON.stringify(bad),
    );
  }
  const after = [...snapshot(root, () => false).keys()].filter((f) => !before.has(f));
  assert.ok(
    after.every((f) => f === 'ws/memory/2026-11-21.md' || f.startsWith('ws/.mem/')),
    after.join('\n'),
  );
  const daily = readFileSync(join(ws, 'memory', '2026-11-21.md'), 'utf8');
  assert.equal(serializeBlocks(parseBlocks(daily)), daily, 'the daily file round-trips');
  assert.ok(!daily.includes('\0'), 'no NUL byte reaches a memory file');
  assert.equal(entryIds(ws).length, accepted.length);
  const lint = await mem(['-C', ws, 'lint']);
  assert.equal(lint.code, 0, lint.stdout + lint.stderr);
});

test('hostile ids for get, source and forget: "no entry", nothing written', async (t) => {
  const { root, ws } = exampleWorkspace(t);
  await mem(['-C', ws, 'microsync', '--since', 'all', '--source', 'claude', '--now', NOW]);
  // A failed forget is a job run in the job log, as every job's.
  const before = snapshot(root, (rel) => rel.includes('.locks') || rel.endsWith('.mem/logs/jobs.jsonl'));
  for (const id of ['../../etc/passwd', '/etc/passwd', '.git', `NOTE-20261121-${'x'.repeat(300)}`]) {
    for (const cmd of ['get', 'source', 'forget']) {
      const r = await mem(['-C', ws, cmd, id]);
      assert.equal(r.code, 1, `${cmd} ${id}: ${r.stderr}`);
      assert.match(r.stderr, /^mem: no entry with id /);
      oneLine(r, `${cmd} ${id}`);
    }
  }
  assert.deepEqual(
    snapshot(root, (rel) => rel.includes('.locks') || rel.endsWith('.mem/logs/jobs.jsonl')),
    before,
  );
});

test('config paths with NUL, "..", absolute and over-long names: one line or a plain run, nothing outside written', async (t) => {
  const { root, ws } = exampleWorkspace(t);
  writeFileSync(join(root, 'outside.md'), '# Outside\n\nA note next to the workspace.\n');
  const long = 'y'.repeat(300);
  const configs: [string, (cfg: Record<string, unknown>) => void][] = [
    [
      'NUL in sources[].path',
      (cfg) => (cfg.sources = [{ name: 'n', kind: 'jsonl', path: '../transcripts/jsonl\0/x' }]),
    ],
    ['over-long sources[].path', (cfg) => (cfg.sources = [{ name: 'l', kind: 'jsonl', path: long }])],
    [
      'absolute sources[].path',
      (cfg) => (cfg.sources = [{ name: 'a', kind: 'jsonl', path: join(root, 'transcripts', 'jsonl') }]),
    ],
    [
      'NUL, "..", absolute and long extraPaths',
      (cfg) => (
        (cfg.sources = []),
        (cfg.extraPaths = ['../\0x', '..', join(root, 'outside.md'), '/nonexistent/abs', long, `${long}/${long}`])
      ),
    ],
  ];
  for (const [what, edit] of configs) {
    editConfig(ws, edit);
    const outside = snapshot(root, (rel) => rel === 'workspace' || rel.startsWith('workspace/'));
    for (const args of [['microsync', '--since', 'all'], ['index'], ['search', 'note']]) {
      const r = await mem(['-C', ws, '--now', NOW, ...args]);
      assert.ok(r.code === 0 || r.code === 1 || r.code === 4, `${what}, ${args[0]}: exit ${r.code}\n${r.stderr}`);
      oneLine(r, `${what}, ${args[0]}`);
    }
    assert.deepEqual(
      snapshot(root, (rel) => rel === 'workspace' || rel.startsWith('workspace/')),
      outside,
      `${what}: nothing outside the workspace changed`,
    );
  }
});

test('extraPaths naming the root of the file system ("/", or ".." enough times) are ignored with a warning, not walked', async (t) => {
  const { ws } = exampleWorkspace(t);
  editConfig(ws, (cfg) => (cfg.extraPaths = ['/', '../'.repeat(64), 'second-brain/summaries']));
  for (const args of [['--json', 'index'], ['search', 'note'], ['config']]) {
    const r = await mem(['-C', ws, '--now', NOW, ...args]);
    assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
    assert.match(
      r.stderr,
      /extraPaths: "\/" is the root of the file system \(every Markdown file on the disk would be indexed\); ignored/,
    );
    assert.match(r.stderr, /extraPaths: "(\.\.\/)+" is the root of the file system/);
    if (args[1] === 'index') assert.ok(JSON.parse(r.stdout).tiers.cold.files < 50, 'only the workspace was scanned');
  }
});

test('mem init with a folder name over 255 bytes or a NUL-free reserved name: one line, nothing made', async (t) => {
  const root = tempDir(t);
  const r = await mem(['init', join(root, 'w'.repeat(300))]);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /^mem: [^\n]*file name too long/);
  oneLine(r, 'init long');
  for (const name of ['CON', 'NUL', 'aux.txt']) {
    const ok = await mem(['init', join(root, name)]);
    assert.equal(ok.code, 0, `${name}: ${ok.stderr}`);
  }
  assert.deepEqual(
    new Set([...snapshot(root, () => false).keys()].map((f) => f.split('/')[0])),
    new Set(['CON', 'NUL', 'aux.txt']),
  );
});
