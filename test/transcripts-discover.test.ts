/**
 * Finding a source's transcript files: directories searched recursively, globs, `~`, hidden folders,
 * node_modules and symlink loops, the Codex rollout preference, SOURCE_MISSING and SOURCE_UNREADABLE.
 */
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { listTranscriptFiles } from '../src/transcripts/index.js';
import { globToRegExp, splitGlob } from '../src/transcripts/glob.js';
import { FIXTURES, put, tempDir } from './helpers/transcripts-tmp.js';

function tree(t: Parameters<typeof tempDir>[0]) {
  const dir = tempDir(t);
  const files = [
    'proj/a.jsonl',
    'proj/sub/b.jsonl',
    'proj/sub/deep/c.ndjson',
    'proj/sub/notes.md',
    'proj/node_modules/x.jsonl',
    'proj/.cache/y.jsonl',
    'proj/._z.jsonl',
    'proj/readme.txt',
  ];
  for (const f of files) put(dir, f, '{}\n');
  symlinkSync(join(dir, 'proj'), join(dir, 'proj', 'sub', 'loop'));
  symlinkSync(join(dir, 'missing'), join(dir, 'proj', 'broken.jsonl'));
  return { dir, root: join(dir, 'proj') };
}

test('a directory is searched recursively for the kind, skipping hidden, node_modules and loops', async (t) => {
  const { root } = tree(t);
  assert.deepEqual(await listTranscriptFiles('claude-code', root, '/'), [
    join(root, 'a.jsonl'),
    join(root, 'sub/b.jsonl'),
  ]);
  assert.deepEqual(await listTranscriptFiles('jsonl', root, '/'), [
    join(root, 'a.jsonl'),
    join(root, 'sub/b.jsonl'),
    join(root, 'sub/deep/c.ndjson'),
  ]);
  assert.deepEqual(await listTranscriptFiles('markdown', root, '/'), [join(root, 'sub/notes.md')]);
});

test('a transcript reachable through a link is listed once, by its real path', async (t) => {
  const dir = tempDir(t);
  const real = put(dir, 'src/zz-real/s.jsonl', '{}\n');
  symlinkSync(join(dir, 'src/zz-real'), join(dir, 'src/aa-link'));
  symlinkSync(real, join(dir, 'src/aa-file.jsonl'));
  const outside = put(dir, 'elsewhere/o.jsonl', '{}\n');
  symlinkSync(join(dir, 'elsewhere'), join(dir, 'src/bb-elsewhere'));
  assert.deepEqual(await listTranscriptFiles('jsonl', join(dir, 'src'), '/'), [
    join(dir, 'src/bb-elsewhere/o.jsonl'),
    real,
  ]);
  assert.ok(outside);
});

test('relative paths start at baseDir; a file path is returned as is', async (t) => {
  const { dir, root } = tree(t);
  // From inside sub, the link back to proj is followed once: proj's other file, never sub again.
  assert.deepEqual(await listTranscriptFiles('openclaw', 'proj/sub', dir), [
    join(root, 'sub/b.jsonl'),
    join(root, 'sub/loop/a.jsonl'),
  ]);
  assert.deepEqual(await listTranscriptFiles('markdown', './proj/readme.txt', dir), [join(root, 'readme.txt')]);
});

test('globs: *, **, ? and {a,b}, below a literal base that may be hidden', async (t) => {
  const { dir, root } = tree(t);
  put(dir, '.agent/sessions/2026/11/s1.jsonl', '{}\n');
  assert.deepEqual(await listTranscriptFiles('jsonl', `${root}/*.jsonl`, '/'), [join(root, 'a.jsonl')]);
  assert.deepEqual(await listTranscriptFiles('jsonl', 'proj/**/*.jsonl', dir), [
    join(root, 'a.jsonl'),
    join(root, 'sub/b.jsonl'),
  ]);
  assert.deepEqual(await listTranscriptFiles('jsonl', 'proj/sub/{deep,nope}/?.ndjson', dir), [
    join(root, 'sub/deep/c.ndjson'),
  ]);
  assert.deepEqual(await listTranscriptFiles('codex', '.agent/sessions/**/*.jsonl', dir), [
    join(dir, '.agent/sessions/2026/11/s1.jsonl'),
  ]);
  assert.deepEqual(await listTranscriptFiles('jsonl', 'proj/*.md', dir), [], "a glob selects among the kind's files");
});

test('~ is the home folder, and a path pointing into a hidden folder works', async (t) => {
  const home = tempDir(t);
  const file = put(home, '.claude/projects/-home-dev-x/0b2c.jsonl', '{}\n');
  const saved = process.env.HOME;
  process.env.HOME = home;
  t.after(() => {
    process.env.HOME = saved;
  });
  assert.deepEqual(await listTranscriptFiles('claude-code', '~/.claude/projects', '/somewhere/else'), [file]);
  assert.deepEqual(await listTranscriptFiles('claude-code', '~/.claude/projects/*/*.jsonl', '/'), [file]);
});

test('codex prefers rollout-*.jsonl over other JSONL under the folder, and takes any when there are none', async (t) => {
  const dir = tempDir(t);
  put(dir, 'codex/history.jsonl', '{}\n');
  const rollout = put(dir, 'codex/sessions/2026/11/20/rollout-2026-11-20T14-00-05-abc.jsonl', '{}\n');
  assert.deepEqual(await listTranscriptFiles('codex', join(dir, 'codex'), '/'), [rollout]);
  const other = put(dir, 'plain/session.jsonl', '{}\n');
  assert.deepEqual(await listTranscriptFiles('codex', join(dir, 'plain'), '/'), [other]);
});

test('the fixture folders list exactly their transcripts', async () => {
  const names = async (kind: Parameters<typeof listTranscriptFiles>[0]) =>
    (await listTranscriptFiles(kind, join(FIXTURES, kind), '/')).map((f) => f.slice(FIXTURES.length + 1));
  assert.deepEqual(await names('claude-code'), [
    'claude-code/-home-dev-ledgerline/5b0f3c8e-2d4a-4c71-9e3b-8a6f1d2c7e90.jsonl',
  ]);
  assert.equal((await names('codex')).length, 2);
  assert.deepEqual(await names('openclaw'), [
    'openclaw/agents/main/sessions/0b7e4c1a-93d2-4f5e-a6b8-c9d0e1f2a3b4.jsonl',
  ]);
  assert.deepEqual(await names('jsonl'), ['jsonl/ledgerline-standup.jsonl']);
  assert.deepEqual(await names('markdown'), ['markdown/2026-11-21-api-errors.md']);
});

test('a missing source path (plain, glob or ~) throws SOURCE_MISSING naming it', async (t) => {
  const dir = tempDir(t);
  const isUnreadable = (path: string) => (err: { code?: string; message?: string }) => {
    assert.equal(err.code, 'SOURCE_MISSING');
    assert.ok(err.message?.includes(path), err.message);
    return true;
  };
  await assert.rejects(listTranscriptFiles('jsonl', 'nope', dir), isUnreadable(join(dir, 'nope')));
  await assert.rejects(listTranscriptFiles('jsonl', 'nope/**/*.jsonl', dir), isUnreadable(join(dir, 'nope')));
  await assert.rejects(
    listTranscriptFiles('jsonl', '~/definitely-not-here-memfold', dir),
    isUnreadable('(from "~/definitely-not-here-memfold")'),
  );
});

test('an unreadable source folder throws SOURCE_UNREADABLE naming it', async (t) => {
  if (process.getuid?.() === 0) return t.skip('root can read any folder');
  const locked = join(tempDir(t), 'locked');
  mkdirSync(locked);
  chmodSync(locked, 0o000);
  t.after(() => chmodSync(locked, 0o700));
  await assert.rejects(listTranscriptFiles('jsonl', locked, '/'), (err: { code?: string; message?: string }) => {
    assert.equal(err.code, 'SOURCE_UNREADABLE');
    assert.ok(err.message?.includes(locked), err.message);
    return true;
  });
});

test('glob helpers: literal base and segment-aware matching', () => {
  assert.deepEqual(splitGlob('/h/.codex/sessions/**/rollout-*.jsonl'), {
    base: '/h/.codex/sessions',
    glob: '**/rollout-*.jsonl',
  });
  const re = globToRegExp('**/rollout-*.jsonl');
  assert.ok(re.test('rollout-1.jsonl') && re.test('2026/11/20/rollout-1.jsonl'));
  assert.ok(!re.test('2026/rollout-1.jsonl.bak') && !re.test('x/history.jsonl'));
  assert.ok(!globToRegExp('*.jsonl').test('a/b.jsonl'), '* stays within a segment');
  assert.ok(globToRegExp('a+b(1).jsonl').test('a+b(1).jsonl'), 'regex characters are literal');
});
