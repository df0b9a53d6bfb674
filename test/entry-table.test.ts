/**
 * The entry table in .mem/entries/ (issue 28): `mem index` writes it, `mem get`, `mem context` and
 * `mem trace` answer from it, a hand edit of a daily file is in the next read whether or not the table
 * or a resident server saw it, reads never write it, and deleting .mem/ loses nothing.
 */
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { mem, memOk } from './helpers/cli.js';
import { killAfter, startServer, status, waitFor } from './helpers/search-server.js';
import { daily, entry, files, workspace } from './fixtures/governance/workspace.js';

const D = '2026-11-20';
const RULE = 'RULE-20261120-deploy-on-tuesdays';
const OLD = 'DECISION-20261120-cache-in-redis';
const NEW = 'DECISION-20261121-cache-in-process';
const table = (ws: string) => join(ws, '.mem', 'entries');
/** Every file of the table, its in-force heads (heads/) included. */
const tableFiles = (ws: string) =>
  readdirSync(table(ws), { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name));

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
        fields: { conclusion: 'we cache in Redis', scope: 'project:shop' },
      }),
    ]),
  });
}

const pack = async (ws: string) =>
  JSON.parse((await memOk(['-C', ws, 'context', '--scope', 'project:shop', '--json'])).stdout) as {
    items: { id: string }[];
    text: string;
  };
const ids = async (ws: string) => (await pack(ws)).items.map((i) => i.id).sort();

/** Appends a new entry superseding OLD and retracts RULE, by hand, as a person edits in an editor. */
function handEdit(ws: string): void {
  const file = join(ws, 'memory', `${D}.md`);
  writeFileSync(
    file,
    readFileSync(file, 'utf8').replace(
      `- id: ${RULE}\n- date: ${D}\n- status: active`,
      `- id: ${RULE}\n- date: ${D}\n- status: retracted`,
    ),
  );
  appendFileSync(
    join(ws, 'memory', '2026-11-21.md'),
    daily('2026-11-21', [
      entry({
        id: NEW,
        title: 'Cache in process',
        date: '2026-11-21',
        fields: { conclusion: 'an LRU in the process', scope: 'project:shop', supersedes: OLD },
      }),
    ]),
  );
}

async function assertEdited(ws: string): Promise<void> {
  assert.deepEqual(await ids(ws), [NEW]);
  const got = await memOk(['-C', ws, 'get', NEW]);
  assert.match(got.stdout, /^memory\/2026-11-21\.md:3-\d+\n## Decision: Cache in process\n/);
  assert.equal(JSON.parse((await memOk(['-C', ws, '--json', 'get', RULE])).stdout).fields.status, 'retracted');
  assert.equal(JSON.parse((await memOk(['-C', ws, '--json', 'trace', OLD])).stdout).current, NEW);
}

test('mem index writes the table; reads answer from it and write nothing; a hand edit is in the next read', async (t) => {
  const ws = fixture(t);
  await memOk(['-C', ws, 'index']);
  assert.ok(
    readdirSync(table(ws)).some((f) => /^b\d\d\.json$/.test(f)),
    'the table is written by mem index',
  );
  assert.deepEqual(await ids(ws), [OLD, RULE].sort());
  const stored = files(table(ws));
  handEdit(ws);
  await assertEdited(ws);
  assert.deepEqual(files(table(ws)), stored, 'a read never writes the table');
  await memOk(['-C', ws, 'index']);
  assert.notDeepEqual(files(table(ws)), stored, 'the next mem index brings it up to date');
  await assertEdited(ws);
});

test('the reads answer from the table: a row the table holds for an unchanged file is what trace and context see', async (t) => {
  const ws = fixture(t);
  await memOk(['-C', ws, 'index']);
  // Changing a title inside the table (its file's stamp kept) shows that no daily file was parsed.
  for (const p of tableFiles(ws))
    writeFileSync(p, readFileSync(p, 'utf8').replace('"Cache in Redis"', '"Cache in Redis (from the table)"'));
  const tr = JSON.parse((await memOk(['-C', ws, '--json', 'trace', OLD])).stdout);
  assert.equal(tr.chain[0].title, 'Cache in Redis (from the table)');
  // The pack's text is the entry's, read from its file for the chosen entries only.
  assert.match((await pack(ws)).text, /Cache in Redis/);
});

test('deleting .mem/ loses nothing; a damaged bucket is read as empty', async (t) => {
  const ws = fixture(t);
  await memOk(['-C', ws, 'index']);
  const before = await pack(ws);
  // Every file of it damaged: the buckets, stamps.json and the in-force heads.
  for (const p of tableFiles(ws)) writeFileSync(p, '{"layout": 1, "files": [');
  assert.deepEqual(await pack(ws), before);
  rmSync(join(ws, '.mem'), { recursive: true, force: true });
  assert.deepEqual(await pack(ws), before);
  assert.equal((await mem(['-C', ws, 'get', RULE])).code, 0);
  assert.ok(!existsSync(join(ws, '.mem', 'entries')), 'reads left no table behind');
});

test('with the resident server running, a hand edit is in the next mem get and mem context', async (t) => {
  const ws = fixture(t);
  await memOk(['-C', ws, 'index']);
  const { child } = startServer(ws);
  killAfter(t, child);
  await waitFor('the server', async () => (await status(ws)) ?? false, 60_000, 200);
  handEdit(ws);
  await assertEdited(ws);
  // The server runs the next mem index, and the table it leaves answers the same.
  await memOk(['-C', ws, 'index']);
  await assertEdited(ws);
});
