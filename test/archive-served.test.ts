/**
 * `mem search --archive` answered by the resident search server: the archive tier plugged into the
 * server by its process entry (cli/search-server.ts) ranks through the same code as a cold run, and
 * the client prints the reply with the cold run's printer, so both print the same bytes.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { exampleWorkspace, mem } from './helpers/cli.js';
import { killAfter, startServer, status, waitFor } from './helpers/search-server.js';

test('a running server answers mem search --archive with the bytes a cold run prints (JSON and text, filters, no hits)', async (t) => {
  const { ws } = exampleWorkspace(t);
  assert.equal((await mem(['-C', ws, 'archive'])).code, 0);
  const { child } = startServer(ws);
  killAfter(t, child);
  const up = await waitFor('the server', async () => (await status(ws)) ?? false, 60_000, 200);
  const cases = [
    ['--json', 'search', '--archive', 'smoke', '-k', '10'],
    ['search', '--archive', 'smoke'],
    ['--json', 'search', '--archive', 'smoke', '--source', 'claude'],
    ['--json', 'search', '--archive', 'smoke', '--session', 'standup-2026-11-21'],
    ['--json', '--now', '2026-11-22T09:00:00Z', 'search', '--archive', 'zanzibar', '--since', '2026-11-01'],
    ['search', '--archive', 'no-such-word-anywhere'],
  ];
  for (const argv of cases) {
    const served = await mem(['-C', ws, ...argv], { env: { MEM_SEARCH_SERVER: 'no-spawn' } });
    const cold = await mem(['-C', ws, ...argv], { env: { MEM_SEARCH_SERVER: 'off' } });
    assert.equal(served.code, 0, served.stderr);
    assert.equal(served.stdout, cold.stdout, argv.join(' '));
    assert.equal(served.stderr, cold.stderr, argv.join(' '));
  }
  const hits = JSON.parse((await mem(['-C', ws, '--json', 'search', '--archive', 'smoke'])).stdout);
  assert.ok(hits.results.length > 0, 'the queries have hits');
  const s = (await status(ws))!;
  assert.equal(s.served - up.served, cases.length + 1, 'the server answered every one');
  assert.equal(s.cold, up.cold);
});
