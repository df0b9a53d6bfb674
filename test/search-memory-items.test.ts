/**
 * A MEMORY.md item in search results is its cited entry's: it carries the entry's id and current
 * status, so `mem forget` hides it at once (not at the next weekly compound) and a superseded entry's
 * item is demoted; cold, `--json` and served answers alike. MEMORY.md is written by a real compound.
 */
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { memOk } from './helpers/cli.js';
import { killAfter, startServer, status, waitFor } from './helpers/search-server.js';
import { daily, entry, workspace } from './fixtures/governance/workspace.js';

const ZEBRA = 'DECISION-20261118-use-the-zebra-cache-for-pricing-lookups';
const RULE = 'RULE-20261118-deploys-happen-on-tuesdays-only';
const DAY = 'memory/2026-11-18.md';
const AFTER = ['--now', '2026-11-24T10:00:00Z'];

type Hit = { path: string; id: string | null; status: string | null; scores: { status: number } };
type Answer = { indexBehind: boolean; results: Hit[] };

async function search(
  ws: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ json: Answer; stdout: string }> {
  const r = await memOk(['-C', ws, ...AFTER, '--json', 'search', ...args], { env });
  return { json: JSON.parse(r.stdout) as Answer, stdout: r.stdout };
}

const item = (a: Answer) => a.results.find((h) => h.path === 'MEMORY.md');

test("a MEMORY.md item takes its entry's id and current status: forget hides it, a superseded entry demotes it, cold and served alike", async (t) => {
  const ws = workspace(t, {
    [DAY]: daily('2026-11-18', [
      entry({
        id: ZEBRA,
        title: 'Use the zebra cache for pricing lookups',
        date: '2026-11-18',
        fields: { conclusion: 'pricing lookups go through the zebra cache', origin: 'user' },
      }),
      entry({
        id: RULE,
        title: 'Deploys happen on Tuesdays only',
        date: '2026-11-18',
        fields: { conclusion: 'deploys happen on Tuesdays only', origin: 'user' },
      }),
    ]),
  });
  await memOk(['-C', ws, '--now', '2026-11-23T03:00:00Z', 'compound']);
  assert.match(
    readFileSync(join(ws, 'MEMORY.md'), 'utf8'),
    new RegExp(`\\[${ZEBRA}\\]\\(${DAY}#`),
    'compound cites the entry with a link',
  );
  // A hand-added item citing an entry that does not exist.
  appendFileSync(
    join(ws, 'MEMORY.md'),
    '\n## Notes\n- Ghost pricing table ([NOTE-20261101-ghost-pricing-table](memory/2026-11-01.md#note-ghost-pricing-table))\n',
  );
  await memOk(['-C', ws, 'index']);

  const active = item((await search(ws, ['zebra cache'])).json);
  assert.deepEqual([active?.id, active?.status, active?.scores.status], [ZEBRA, 'active', 1]);
  const ghost = item((await search(ws, ['ghost pricing'])).json);
  assert.deepEqual([ghost?.id, ghost?.status], [null, null], 'no id is named that the index does not hold');

  await memOk(['-C', ws, ...AFTER, 'forget', ZEBRA]);
  await memOk(['-C', ws, 'index']);
  const hidden = (await search(ws, ['zebra cache'])).json;
  assert.deepEqual(
    hidden.results.filter((h) => h.id === ZEBRA || h.path === 'MEMORY.md'),
    [],
    'neither the entry nor its MEMORY.md item',
  );
  const human = await memOk(['-C', ws, ...AFTER, 'search', 'zebra cache']);
  assert.doesNotMatch(human.stdout, /MEMORY\.md/);
  const asked = item((await search(ws, ['zebra cache', '--status', 'retracted'])).json);
  assert.deepEqual([asked?.id, asked?.status, asked?.scores.status], [ZEBRA, 'retracted', 0.3]);
  // The other item keeps its own entry's status.
  assert.deepEqual(item((await search(ws, ['deploys tuesdays'])).json)?.status, 'active');

  // A hand edit not yet indexed: the overlaid daily file gives the status.
  writeFileSync(
    join(ws, DAY),
    readFileSync(join(ws, DAY), 'utf8').replace('- status: retracted', '- status: superseded'),
  );
  const behind = (await search(ws, ['zebra cache'])).json;
  assert.equal(behind.indexBehind, true);
  assert.deepEqual([item(behind)?.id, item(behind)?.status, item(behind)?.scores.status], [ZEBRA, 'superseded', 0.6]);

  // The resident server answers as the cold path does.
  const { child } = startServer(ws, ['--idle-ms', '600000']);
  killAfter(t, child);
  await waitFor('the search server', async () => (await status(ws)) ?? false, 60_000, 200);
  for (const args of [['zebra cache'], ['zebra cache', '--status', 'superseded'], ['deploys tuesdays']]) {
    const served = await search(ws, args);
    const cold = await search(ws, args, { MEM_SEARCH_SERVER: 'off' });
    assert.equal(served.stdout, cold.stdout, `search ${args.join(' ')}`);
  }
  assert.equal((await status(ws))?.served, 3, 'each search was answered by the server');
  writeFileSync(
    join(ws, DAY),
    readFileSync(join(ws, DAY), 'utf8').replace('- status: superseded', '- status: retracted'),
  );
  const served = await search(ws, ['zebra cache']);
  assert.equal(
    item(served.json),
    undefined,
    'the server hides the item of an entry retracted since it loaded the tier',
  );
  assert.equal(served.stdout, (await search(ws, ['zebra cache'], { MEM_SEARCH_SERVER: 'off' })).stdout);
  child.kill('SIGTERM');
});
