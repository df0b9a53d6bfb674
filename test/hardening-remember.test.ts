/**
 * `mem remember` decides under the write lock (src/jobs/remember.ts): one statement said by several
 * processes at once under different titles is recorded once, and every run that found it already
 * there names the entry that holds it. (Different texts under one title: paths.test.ts, 8 × 50 in stress.)
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { entryIds, mem, tempDir } from './helpers/cli.js';

const NOW = '2026-11-21T10:00:00Z';

test('the same text from concurrent runs under different titles: one entry, the others name it', async (t) => {
  const rounds = Number(process.env.MEM_STRESS_REMEMBER_SAME ?? 2);
  for (let round = 0; round < rounds; round++) {
    const ws = tempDir(t);
    await mem(['init', ws]);
    const runs = await Promise.all(Array.from({ length: 8 }, (_, i) =>
      mem(['-C', ws, '--now', NOW, 'remember', 'The staging database is refreshed every Sunday night', '--title', `Staging refresh ${i}`])));
    for (const r of runs) assert.equal(r.code, 0, r.stderr);
    const ids = entryIds(ws);
    assert.equal(ids.length, 1, `round ${round}: recorded more than once:\n${ids.join('\n')}`);
    const said = runs.map((r) => /(?:remembered|already remembered as) ([^\s;]+)/.exec(r.stdout)?.[1]);
    assert.deepEqual(new Set(said), new Set(ids), `every run names the one entry:\n${runs.map((r) => r.stdout).join('')}`);
    assert.equal(runs.filter((r) => r.stdout.startsWith('remembered ')).length, 1);
  }
});
