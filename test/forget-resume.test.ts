/**
 * forget runs that stopped part-way or name an entry already gone (issue 29, item 5): a soft forget
 * killed between its status flip and its log line is logged by the next run; `forget --hard A B`
 * with A removed before removes B and says A was already gone.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { entryIds, finished, mem, startMem, tempDir } from './helpers/cli.js';

const NOW = '2026-11-22T09:00:00Z';

async function remembered(ws: string, text: string): Promise<string> {
  const r = await mem(['-C', ws, 'remember', text, '--now', NOW]);
  assert.equal(r.code, 0, r.stderr);
  return /remembered (\S+)/.exec(r.stdout)![1]!;
}

test('a soft forget killed after its flip, before its weekly-log line: the next run logs it', async (t) => {
  const ws = join(tempDir(t), 'ws');
  assert.equal((await mem(['init', ws])).code, 0);
  const id = await remembered(ws, 'Deploys happen on Tuesdays only');
  const log = 'memory/archive/weekly-2026-W47.md';
  const child = startMem(['-C', ws, 'forget', id, '--now', NOW], {
    env: { MEM_TEST_HOOKS: '1', MEM_FAULT: 'pause-before-rename', MEM_FAULT_FILE: log, MEM_FAULT_MS: '30000' },
  });
  const done = finished(child);
  await new Promise<void>((resolve) =>
    child.stderr!.on('data', (d: Buffer) => d.toString().includes('paused before renaming') && resolve()),
  );
  child.kill('SIGKILL');
  await done;
  assert.match(readFileSync(join(ws, 'memory/2026-11-22.md'), 'utf8'), /- status: retracted/, 'the flip happened');

  const again = await mem(['-C', ws, 'forget', id, '--now', NOW]);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, /is already retracted; the weekly log did not say so .*logged now/);
  assert.match(readFileSync(join(ws, log), 'utf8'), new RegExp(`^- retracted: ${id} by \`mem forget\``, 'm'));
  const third = await mem(['-C', ws, 'forget', id, '--now', NOW]);
  assert.equal(third.code, 0);
  assert.equal(readFileSync(join(ws, log), 'utf8').split(`retracted: ${id} `).length - 1, 1, 'logged once');
});

test('forget --hard A B with A already removed: B is removed, A is said to be gone, exit 0', async (t) => {
  const ws = join(tempDir(t), 'ws');
  assert.equal((await mem(['init', ws])).code, 0);
  const a = await remembered(ws, 'Deploys happen on Tuesdays only');
  const b = await remembered(ws, 'The staging database is rebuilt nightly');
  assert.equal((await mem(['-C', ws, 'forget', '--hard', a, '--yes', '--now', NOW])).code, 0);
  const r = await mem(['-C', ws, 'forget', '--hard', a, b, '--yes', '--now', NOW]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, new RegExp(`${a}: already removed by "mem forget --hard"`));
  assert.deepEqual(entryIds(ws), []);
});
