/** Privacy in the archive tier: `mem forget --hard` purges the entry's excerpts, never the transcript. */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { exampleWorkspace, mem } from './helpers/cli.js';

const NOW = '2026-11-22T09:00:00Z';
const ID = 'NOTE-20261121-部署前要先跑-smoke-test';

const hits = async (ws: string, q: string) => {
  const r = await mem(['-C', ws, '--json', 'search', '--archive', q, '--session', 'standup-2026-11-21']);
  assert.equal(r.code, 0, r.stderr);
  return (JSON.parse(r.stdout) as { results: Array<{ turns: string }> }).results;
};
const archiveBytes = (ws: string) =>
  readdirSync(join(ws, '.mem', 'archive'))
    .map((n) => readFileSync(join(ws, '.mem', 'archive', n), 'utf8'))
    .join('');

test("forget --hard removes the entry's excerpts from the archive index, says the transcript is untouched, and a rebuild keeps them out", async (t) => {
  const { ws, transcripts } = exampleWorkspace(t);
  assert.equal((await mem(['-C', ws, 'microsync', '--since', 'all', '--now', NOW])).code, 0);
  assert.equal((await mem(['-C', ws, 'archive'])).code, 0);
  const file = join(transcripts, 'jsonl', 'ledgerline-standup.jsonl');
  const transcript = readFileSync(file, 'utf8');
  assert.deepEqual(
    (await hits(ws, '部署前')).map((h) => h.turns),
    ['1-4', '5-8'],
  );
  assert.ok(archiveBytes(ws).includes('部署前要先跑'));

  const dry = await mem(['-C', ws, '--json', 'forget', ID, '--hard', '--dry-run']);
  assert.equal(dry.code, 0, dry.stderr);
  assert.deepEqual((JSON.parse(dry.stdout) as { archive: unknown }).archive, { docs: 1, segments: 1 });
  assert.ok(archiveBytes(ws).includes('部署前要先跑'), 'a dry run changes nothing');

  const r = await mem(['-C', ws, 'forget', ID, '--hard', '--yes']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stdout,
    /purge \.mem\/archive\/ \(1 transcript window citing or quoting the entries; the transcripts themselves are the agent's and are not touched\)/,
  );
  assert.deepEqual(
    (await hits(ws, '部署前')).map((h) => h.turns),
    ['5-8'],
    'the window holding the statement is gone',
  );
  assert.ok(!archiveBytes(ws).includes('部署前要先跑'), 'no excerpt left in .mem/archive');
  assert.equal(readFileSync(file, 'utf8'), transcript, "the transcript is the agent's: untouched");
  assert.ok((await hits(ws, 'weekend')).length > 0, 'other windows of the same session stay');

  assert.equal((await mem(['-C', ws, 'archive', '--rebuild'])).code, 0);
  assert.deepEqual(
    (await hits(ws, '部署前')).map((h) => h.turns),
    ['5-8'],
    'a rebuild does not index the purged turns again',
  );
  assert.ok(!archiveBytes(ws).includes('部署前要先跑'));
});

test("an older memfold's archive is not searched, keeps its purges and a new one, and the next mem archive rebuilds it", async (t) => {
  const { ws } = exampleWorkspace(t);
  assert.equal((await mem(['-C', ws, 'microsync', '--since', 'all', '--now', NOW])).code, 0);
  assert.equal((await mem(['-C', ws, 'archive'])).code, 0);
  const weekend = (await hits(ws, 'weekend')).map((h) => h.turns);
  assert.ok(weekend.length > 0);
  // The state and segment an older memfold wrote: version 1, `.docs.jsonl` lines, a purged window (a tombstone).
  const dir = join(ws, '.mem', 'archive');
  const v2 = JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')) as { files: Record<string, { no: number }> };
  const [file, f] = Object.entries(v2.files).find(([p]) => p.endsWith('ledgerline-standup.jsonl'))!;
  const [a, b] = weekend[0]!.split('-').map(Number);
  for (const n of readdirSync(dir)) rmSync(join(dir, n));
  const tomb = { f: f.no, s: 'standup-2026-11-21', a, b, t: null, o: 0, e: 1, x: '', purged: true };
  writeFileSync(join(dir, 'seg-000001.docs.jsonl'), JSON.stringify(tomb) + '\n');
  writeFileSync(join(dir, 'seg-000001.meta.bin'), Buffer.alloc(28));
  writeFileSync(join(dir, 'seg-000001.post'), Buffer.alloc(2048));
  const v1 = { version: 1, segments: [{ name: 'seg-000001', docs: 1, tokens: 0 }], files: { [file]: v2.files[file] } };
  writeFileSync(
    join(dir, 'state.json'),
    JSON.stringify({ ...v1, retired: [], purged: [], nextFile: 9, nextSegment: 2 }),
  );

  const old = await mem(['-C', ws, '--json', 'search', '--archive', 'weekend']);
  assert.equal(old.code, 0, old.stderr);
  assert.match(
    old.stderr,
    /^warning: the archive index was written by an older memfold: run "mem archive" to rebuild it/,
  );
  assert.deepEqual((JSON.parse(old.stdout) as { results: unknown[] }).results, []);
  assert.equal((await mem(['-C', ws, 'forget', ID, '--hard', '--yes'])).code, 0, 'a purge meanwhile is remembered');
  assert.match((await mem(['-C', ws, 'status'])).stdout, /archive .*written by an older memfold, not searched/);

  const r = await mem(['-C', ws, 'archive']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /the archive index was written by an older memfold; it was rebuilt from the transcripts/);
  assert.deepEqual(
    (await hits(ws, '部署前')).map((h) => h.turns),
    ['5-8'],
  );
  assert.ok(!(await hits(ws, 'weekend')).some((h) => h.turns === weekend[0]), "the tombstone's turns stay out");
  assert.ok(!readdirSync(dir).some((n) => /\.(docs\.jsonl|meta\.bin)$/.test(n)), 'no file of the old format left');
});
