/**
 * A workspace that cannot be written (permission denied, disk full) gives one clear line and exit 1,
 * and leaves every file as it was, with no temp file behind. CI runs as root, where chmod denies
 * nothing, so the permission case runs the CLI as `nobody` through setpriv, and the disk-full case
 * mounts a small tmpfs; where that is impossible the test is skipped with a visible reason.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statfsSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  BIN,
  childEnv,
  editConfig,
  entryIds,
  exampleWorkspace,
  finished,
  mem,
  ROOT,
  snapshot,
  tempDir,
} from './helpers/cli.js';

const NOW = '2026-11-22T09:00:00Z';
const isRoot = process.getuid?.() === 0;
const hasSetpriv = existsSync('/usr/bin/setpriv');

function tempFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.includes('.mem-tmp-'));
}

test(
  'permission denied: one line, exit 1, the daily file untouched',
  { skip: !isRoot || !hasSetpriv ? 'needs root and setpriv to run the CLI as an unprivileged user' : false },
  async (t) => {
    const { root, ws } = exampleWorkspace(t);
    assert.equal((await mem(['-C', ws, 'microsync', '--since', 'all', '--source', 'claude', '--now', NOW])).code, 0);
    const daily = join(ws, 'memory', '2026-11-20.md');
    const before = readFileSync(daily, 'utf8');
    execFileSync('chmod', ['-R', 'a+rX', root]);
    chmodSync(join(ws, 'memory'), 0o555);
    chmodSync(daily, 0o444);
    chmodSync(ws, 0o555);
    const asNobody = (...args: string[]) =>
      finished(
        spawn(
          'setpriv',
          ['--reuid=nobody', '--regid=nogroup', '--clear-groups', process.execPath, BIN, '-C', ws, ...args],
          {
            cwd: ROOT,
            env: childEnv({ HOME: root }),
            stdio: ['ignore', 'pipe', 'pipe'],
          },
        ),
      );
    // The lock folder is the first thing written: refused there, nothing else is tried.
    const locked = await asNobody('microsync', '--since', 'all', '--now', NOW);
    assert.equal(locked.code, 1, locked.stderr);
    assert.match(
      locked.stderr,
      /^mem: cannot write the "microsync" lock in memory\/\.locks: permission denied \(this user may not write there\); nothing was written$/m,
    );
    // Locks allowed, the memory folder not: the error names the daily file, not the temp file.
    chmodSync(join(ws, 'memory', '.locks'), 0o777);
    for (const args of [
      ['microsync', '--since', 'all', '--now', NOW],
      ['--now', '2026-11-20T18:00:00Z', 'remember', 'A fact that cannot land'],
    ]) {
      const r = await asNobody(...args);
      assert.equal(r.code, 1, r.stderr);
      assert.match(
        r.stderr,
        /^mem: cannot write memory\/2026-11-20\.md: permission denied \(this user may not write there\); the file is unchanged$/m,
      );
      assert.doesNotMatch(r.stderr, /mem-tmp|\n\s+at /);
    }
    assert.equal(readFileSync(daily, 'utf8'), before);
    assert.deepEqual(tempFiles(ws), []);
  },
);

test(
  'an unreadable folder under extraPaths: status still reports, search still answers',
  { skip: !isRoot || !hasSetpriv ? 'needs root and setpriv to run the CLI as an unprivileged user' : false },
  async (t) => {
    const { root, ws } = exampleWorkspace(t);
    const hidden = join(ws, 'second-brain', 'summaries', 'private');
    mkdirSync(hidden, { recursive: true });
    writeFileSync(join(hidden, 'notes.md'), '# Private\n\nkept from other users\n');
    execFileSync('chmod', ['-R', 'a+rX', root]);
    chmodSync(hidden, 0o700);
    const asNobody = (...args: string[]) =>
      finished(
        spawn(
          'setpriv',
          ['--reuid=nobody', '--regid=nogroup', '--clear-groups', process.execPath, BIN, '-C', ws, ...args],
          {
            cwd: ROOT,
            env: childEnv({ HOME: root }),
            stdio: ['ignore', 'pipe', 'pipe'],
          },
        ),
      );
    const status = await asNobody('status');
    assert.equal(status.code, 0, status.stderr);
    assert.match(status.stdout, /^index not built/m);
    const search = await asNobody('search', 'ledgerline');
    assert.equal(search.code, 0, search.stderr);
    assert.doesNotMatch(status.stderr + search.stderr, /\n\s+at /);
  },
);

test(
  'read-only file system: one line, exit 1, nothing written',
  { skip: !isRoot ? 'needs root to make a read-only bind mount' : false },
  async (t) => {
    const { ws } = exampleWorkspace(t);
    assert.equal((await mem(['-C', ws, 'microsync', '--since', 'all', '--source', 'claude', '--now', NOW])).code, 0);
    // No lock folder yet: Node's recursive mkdir says ENOENT on a read-only file system; the real reason is named.
    rmSync(join(ws, 'memory', '.locks'), { recursive: true });
    const before = snapshot(ws, () => false);
    try {
      execFileSync('mount', ['--bind', ws, ws], { stdio: 'ignore' });
    } catch {
      t.skip('mount --bind is not permitted here');
      return;
    }
    try {
      execFileSync('mount', ['-o', 'remount,ro,bind', ws], { stdio: 'ignore' });
      for (const args of [
        ['microsync', '--since', 'all', '--now', NOW],
        ['--now', '2026-11-20T18:00:00Z', 'remember', 'A fact that cannot land'],
      ]) {
        const r = await mem(['-C', ws, ...args]);
        assert.equal(r.code, 1, r.stderr);
        assert.match(
          r.stderr,
          /^mem: cannot write the "(microsync|write)" lock in memory\/\.locks: read-only file system; nothing was written$/m,
        );
        assert.match(
          r.stderr,
          /^warning: could not append to the job log: read-only file system/m,
          'the job log names the real reason too',
        );
        assert.doesNotMatch(r.stderr, /no such file|\n\s+at /);
      }
    } finally {
      execFileSync('umount', [ws]); // before the temp folder is removed
    }
    assert.deepEqual(
      snapshot(ws, () => false),
      before,
    );
  },
);

test(
  'disk full: one line, exit 1, the daily file untouched, no temp file left',
  { skip: !isRoot ? 'needs root to mount a small tmpfs' : false },
  async (t) => {
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
    // Entries are appended (O_APPEND): the first day's few bytes may fit, the next day's new file does not.
    assert.match(
      r.stderr,
      /^mem: cannot write memory\/2026-11-2[01]\.md: no space left on device; the file is unchanged$/m,
    );
    assert.doesNotMatch(r.stderr, /\n\s+at /);
    assert.ok(readFileSync(daily, 'utf8').startsWith(before), 'the old entries, whole');
    assert.deepEqual(tempFiles(ws), []);
    const lint = await mem(['-C', ws, 'lint']);
    assert.equal(lint.code, 0, lint.stdout);
  },
);

test('a file where a folder belongs (.mem) or a folder where a file belongs (MEMORY.md): one line naming it, and a job that wrote its memory still succeeds', async (t) => {
  const { ws } = exampleWorkspace(t);
  rmSync(join(ws, '.mem'), { recursive: true, force: true });
  writeFileSync(join(ws, '.mem'), 'not a folder\n');
  // remember writes the daily file; only the index and the job log (under .mem/) cannot be written.
  const r = await mem(['-C', ws, '--now', NOW, 'remember', 'Invoices are immutable once sent']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stderr,
    /index not updated \(cannot write \.mem\/index\/\S+: a part of its path is a file, not a folder/,
  );
  assert.ok(entryIds(ws).some((id) => id.startsWith('NOTE-20261122-invoices-are-immutable')));
  const idx = await mem(['-C', ws, 'index']);
  assert.equal(idx.code, 1, idx.stderr);
  assert.match(
    idx.stderr,
    /^mem: cannot write \.mem\/index\/\S+: a part of its path is a file, not a folder; the file is unchanged$/m,
  );
  assert.doesNotMatch(idx.stderr, /\n\s+at /);
  rmSync(join(ws, '.mem'));
  // A file where the job log's folder belongs: named as such (mkdir's own word for it is EEXIST).
  mkdirSync(join(ws, '.mem'));
  writeFileSync(join(ws, '.mem', 'logs'), 'not a folder\n');
  const logged = await mem(['-C', ws, '--now', NOW, 'remember', 'Refunds need two approvals']);
  assert.equal(logged.code, 0, logged.stderr);
  assert.match(
    logged.stderr,
    /^warning: could not append to the job log: a part of its path is a file, not a folder \(\S+logs\)$/m,
  );
  assert.doesNotMatch(logged.stderr, /EEXIST/);
  rmSync(join(ws, '.mem'), { recursive: true });
  // MEMORY.md as a folder: compound names it, not its temp file, and leaves no temp file.
  rmSync(join(ws, 'MEMORY.md'), { force: true });
  mkdirSync(join(ws, 'MEMORY.md'));
  const c = await mem(['-C', ws, '--now', NOW, 'compound']);
  assert.equal(c.code, 1, c.stderr);
  assert.match(
    c.stderr,
    /^mem: cannot write MEMORY\.md: it is a folder, not a file; the file is unchanged\. compound 2026-W46 stopped part-way; already written: (.*, )?memory\/archive\/weekly-2026-W46\.md \(the run's plan\); fix that and run `mem compound` again to finish$/m,
  );
  assert.deepEqual(tempFiles(ws), []);
});

test(
  'links to folders inside memory/ (one back up the tree, one to itself) are not followed: jobs that load entries finish',
  { skip: process.platform === 'win32' ? 'symbolic links need privileges on Windows' : false },
  async (t) => {
    const { ws } = exampleWorkspace(t);
    assert.equal((await mem(['-C', ws, 'microsync', '--since', 'all', '--source', 'claude', '--now', NOW])).code, 0);
    const ids = entryIds(ws);
    assert.ok(ids.length > 0);
    symlinkSync('..', join(ws, 'memory', 'up'));
    symlinkSync(join(ws, 'memory'), join(ws, 'memory', 'projects', 'self'));
    for (const args of [['lint'], ['get', ids[0]!], ['--now', NOW, 'compound', '--dry-run']]) {
      const r = await mem(['-C', ws, ...args], { timeoutMs: 30_000 });
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
    }
    const hard = await mem(['-C', ws, '--now', NOW, 'forget', ids[0]!, '--hard', '--yes'], { timeoutMs: 30_000 });
    assert.equal(hard.code, 0, hard.stderr);
    rmSync(join(ws, 'memory', 'up'));
    rmSync(join(ws, 'memory', 'projects', 'self'));
    assert.deepEqual(entryIds(ws), ids.slice(1), 'the one entry forgotten, every other kept');
  },
);

test("usage errors are one line on stderr, exit 2, with commander's suggestion and the help hint", async (t) => {
  const ws = tempDir(t);
  for (const [args, message] of [
    [['serch', 'x'], "unknown command 'serch' (Did you mean search?)"],
    [['-C', ws, 'lint', '--frobnicate'], "unknown option '--frobnicate'"],
    [['-C', ws, 'get'], "missing required argument 'id'"],
  ] as const) {
    const r = await mem([...args]);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stderr, `mem: ${message} (run "mem --help" for usage)\n`);
    assert.equal(r.stdout, '');
  }
});
