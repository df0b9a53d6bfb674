/**
 * A workspace that cannot be written (permission denied, disk full) gives one clear line and exit 1,
 * and leaves every file as it was, with no temp file behind. CI runs as root, where chmod denies
 * nothing, so the permission case runs the CLI as `nobody` through setpriv, and the disk-full case
 * mounts a small tmpfs; where that is impossible the test is skipped with a visible reason.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { BIN, childEnv, editConfig, entryIds, exampleWorkspace, finished, mem, ROOT } from './helpers/cli.js';

const NOW = '2026-11-22T09:00:00Z';
const isRoot = process.getuid?.() === 0;
const hasSetpriv = existsSync('/usr/bin/setpriv');

function tempFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true }).map(String).filter((f) => f.includes('.mem-tmp-'));
}

test('permission denied: one line, exit 1, the daily file untouched', { skip: !isRoot || !hasSetpriv ? 'needs root and setpriv to run the CLI as an unprivileged user' : false }, async (t) => {
  const { root, ws } = exampleWorkspace(t);
  assert.equal((await mem(['-C', ws, 'microsync', '--since', 'all', '--source', 'claude', '--now', NOW])).code, 0);
  const daily = join(ws, 'memory', '2026-11-20.md');
  const before = readFileSync(daily, 'utf8');
  execFileSync('chmod', ['-R', 'a+rX', root]);
  chmodSync(join(ws, 'memory'), 0o555);
  chmodSync(daily, 0o444);
  chmodSync(ws, 0o555);
  const child = spawn('setpriv', ['--reuid=nobody', '--regid=nogroup', '--clear-groups', process.execPath, BIN, '-C', ws, 'microsync', '--since', 'all', '--now', NOW], {
    cwd: ROOT, env: childEnv({ HOME: root }), stdio: ['ignore', 'pipe', 'pipe'],
  });
  const r = await finished(child);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /^mem: permission denied \([^)]+\)$/m);
  assert.doesNotMatch(r.stderr, /\n\s+at /);
  assert.equal(readFileSync(daily, 'utf8'), before);
  assert.deepEqual(tempFiles(ws), []);
});

test('disk full: one line, exit 1, the daily file untouched, no temp file left', { skip: !isRoot ? 'needs root to mount a small tmpfs' : false }, async (t) => {
  const base = mkdtempSync(join(tmpdir(), 'memfold-full-'));
  const ws = join(base, 'workspace');
  mkdirSync(ws);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', ws], { stdio: 'ignore' });
  } catch {
    rmSync(base, { recursive: true, force: true });
    t.skip('mount -t tmpfs is not permitted here');
    return;
  }
  t.after(() => {
    execFileSync('umount', [ws]);
    rmSync(base, { recursive: true, force: true });
  });
  const ex = exampleWorkspace(t);
  cpSync(ex.ws, ws, { recursive: true });
  cpSync(ex.transcripts, join(base, 'transcripts'), { recursive: true });
  editConfig(ws, (cfg) => (cfg.limits = { lockWaitMs: 1000 }));
  assert.equal((await mem(['-C', ws, 'microsync', '--since', 'all', '--source', 'claude', '--now', NOW])).code, 0);
  const daily = join(ws, 'memory', '2026-11-20.md');
  const before = readFileSync(daily, 'utf8');
  // Fill the file system, leaving less than the daily file's new version needs.
  const { bavail, bsize } = statfsSync(ws);
  writeFileSync(join(ws, 'filler.bin'), Buffer.alloc(Math.max(0, bavail * bsize - 512)));
  const r = await mem(['-C', ws, 'microsync', '--since', 'all', '--now', NOW]);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /^mem: no space left on device/m);
  assert.doesNotMatch(r.stderr, /\n\s+at /);
  assert.equal(readFileSync(daily, 'utf8'), before);
  assert.deepEqual(tempFiles(ws), []);
  assert.equal(entryIds(ws).length, 3, 'the entries of the first run, whole');
});
