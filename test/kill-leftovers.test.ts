/**
 * What a killed run leaves (issue 29, item 10): no temp file `git add -A` would stage, and no lock
 * the next run must wait a minute for when its holder on this host is gone.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { editConfig, finished, mem, startMem, tempDir, waitForStderr } from './helpers/cli.js';

const NOW = '2026-11-22T09:00:00Z';

test('a run killed mid-write: git add -A stages no temp file, and the next run takes the lock at once (not after lockStaleMs)', async (t) => {
  const ws = join(tempDir(t), 'ws');
  assert.equal((await mem(['init', ws])).code, 0);
  execFileSync('git', ['init', '-q', ws]);
  // The default stale limit is a minute; waiting 3 s would fail if the lock had to turn stale.
  editConfig(ws, (cfg) => (cfg.limits = { lockWaitMs: 3000 }));
  assert.equal(
    (await mem(['-C', ws, 'remember', 'Deploys happen on Tuesdays only', '--kind', 'rule', '--now', NOW])).code,
    0,
  );

  const child = startMem(['-C', ws, 'compound', '--now', NOW], {
    env: { MEM_TEST_HOOKS: '1', MEM_FAULT: 'pause-mid-write' },
  });
  const done = finished(child);
  await waitForStderr(child, 'mem-fault: paused mid-write');
  child.kill('SIGKILL');
  assert.equal((await done).signal, 'SIGKILL');
  assert.ok(existsSync(join(ws, 'memory', '.locks', 'compound.lock')), 'the killed run left its lock');

  const staged = execFileSync('git', ['-C', ws, 'add', '-A', '--dry-run'], { encoding: 'utf8' });
  assert.doesNotMatch(staged, /mem-tmp/, staged);

  const next = await mem(['-C', ws, 'compound', '--now', NOW]);
  assert.equal(next.code, 0, next.stderr);
  const temps = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((n) => n.includes('mem-tmp')) : []);
  assert.deepEqual(
    [...temps(join(ws, 'memory', '.locks')), ...temps(join(ws, 'memory', 'archive')), ...temps(ws)],
    [],
    "the killed run's temp files are swept",
  );
  assert.ok(!existsSync(join(ws, 'memory', '.locks', 'compound.lock')), 'the lock is released');
  const status = await mem(['-C', ws, 'status']);
  assert.match(status.stdout, /^locks none held$/m);
});
