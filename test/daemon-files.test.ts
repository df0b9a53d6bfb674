/**
 * What the daemon and a job run keep in `.mem/` when the file system refuses: a full disk (here a
 * file size limit of 0, `ulimit -f 0`: every write of a byte fails, as with ENOSPC) leaves neither an
 * empty pid file, which made the next daemon refuse to start, nor an empty running marker; a `.mem`
 * that is a file is one clear line. A child the daemon had to stop leaves no running marker.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { BIN, childEnv, finished, mem, startMem } from './helpers/cli.js';
import { daemonWorkspace, stderrOf, waitFor } from './helpers/daemon.js';

/** `mem …` with a file size limit of 0: creating a file works, writing to it fails (EFBIG, SIGXFSZ ignored by Node). */
function memOnFullDisk(args: string[]) {
  return finished(
    spawn('sh', ['-c', 'ulimit -f 0 && exec "$0" "$@"', process.execPath, BIN, ...args], {
      env: childEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
}

test('a daemon that cannot write its pid file leaves none, and the next one starts', async (t) => {
  const { ws } = daemonWorkspace(t, (cfg) => (cfg.daemon = { index: false }));
  const full = await memOnFullDisk(['-C', ws, 'daemon']);
  assert.equal(full.code, 1, full.stderr);
  assert.match(full.stderr, /^mem: .*file too large/m);
  assert.ok(!existsSync(join(ws, '.mem', 'daemon.pid')), 'no empty pid file left');
  const d = startMem(['-C', ws, 'daemon'], { env: { MEM_SEARCH_SERVER: 'off' } });
  t.after(() => d.kill('SIGKILL'));
  const log = stderrOf(d);
  await waitFor('the next daemon to start', () => d.exitCode !== null || /daemon: pid \d+/.test(log.text()), 20_000);
  assert.equal(d.exitCode, null, log.text());
  d.kill('SIGTERM');
  assert.equal((await finished(d, 20_000)).code, 0);
});

test('a job run that cannot write its running marker leaves none', async (t) => {
  const { ws, fresh } = daemonWorkspace(t);
  mkdirSync(fresh);
  await memOnFullDisk(['-C', ws, 'microsync']);
  assert.deepEqual(readdirSync(join(ws, '.mem', 'running')), []);
});

test('a .mem that is a file: one line saying so, not a raw EEXIST', async (t) => {
  const { ws } = daemonWorkspace(t, (cfg) => (cfg.daemon = { index: false }));
  writeFileSync(join(ws, '.mem'), 'not a folder\n');
  const r = await mem(['-C', ws, 'daemon'], { env: { MEM_SEARCH_SERVER: 'off' } });
  assert.equal(r.code, 1, r.stderr);
  assert.equal(
    r.stderr,
    'mem: cannot write .mem/daemon.pid: a part of its path is a file, not a folder; the daemon did not start\n',
  );
});
