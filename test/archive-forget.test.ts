/** Privacy in the archive tier: `mem forget --hard` purges the entry's excerpts, never the transcript. */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
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
