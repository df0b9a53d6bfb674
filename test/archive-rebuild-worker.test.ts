/**
 * `mem archive --rebuild` and a first `mem archive` run in a worker thread with a capped heap
 * (src/archive/update-thread.ts). A config whose lines might not fit that heap keeps the build in
 * the main thread: that build is the reference. The worker writes the same index byte for byte; a
 * worker out of its heap (the test hook caps it at 4 MB: below about 3 MB Node 22 cannot even start
 * the worker's isolate, and that out-of-memory is fatal to the whole process) leaves no temp file
 * and the build runs again in the main thread, with one warning and the same index; an errno from
 * the worker reads as it does from the main thread.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { editConfig, exampleWorkspace, finished, mem, startMem, waitForStderr } from './helpers/cli.js';

const files = (dir: string) =>
  Object.fromEntries(
    readdirSync(dir)
      .sort()
      .map((n) => [n, readFileSync(join(dir, n)).toString('base64')]),
  );
const CAPPED = { MEM_TEST_HOOKS: '1', MEM_ARCHIVE_WORKER_HEAP_MB: '4' };
const WARNING =
  /^warning: the archive build needed more than the 4 MB heap of its worker thread .*; it ran again without that limit\n$/;

test("the archive build in its worker writes the main thread's index; out of heap it runs again there; its errors read the same", async (t) => {
  const { ws, transcripts } = exampleWorkspace(t);
  // Quiet for 10 minutes: no Markdown turn is held back as still being written.
  const quiet = new Date(Date.now() - 10 * 60_000);
  for (const name of readdirSync(transcripts, { recursive: true, encoding: 'utf8' }))
    utimesSync(join(transcripts, name), quiet, quiet);
  const dir = join(ws, '.mem', 'archive');

  // Lines of up to 32 MB might not fit the worker's heap: the first build stays in the main thread (no warning under a 4 MB cap).
  editConfig(ws, (cfg) => (cfg.limits = { maxLineBytes: 32 * 1024 * 1024 }));
  const first = await mem(['-C', ws, '--json', 'archive'], { env: CAPPED });
  assert.equal(first.code, 0, first.stderr);
  assert.equal(first.stderr, '');
  const inThread = files(dir);
  assert.ok(Object.keys(inThread).some((n) => n.endsWith('.post')));

  editConfig(ws, (cfg) => delete cfg.limits);
  const rebuilt = await mem(['-C', ws, '--json', 'archive', '--rebuild']);
  assert.equal(rebuilt.code, 0, rebuilt.stderr);
  assert.equal(rebuilt.stderr, '');
  const r = JSON.parse(rebuilt.stdout) as { filesRead: number; docs: number; warnings: string[] };
  assert.deepEqual([r.filesRead, r.docs, r.warnings], [6, (JSON.parse(first.stdout) as { docs: number }).docs, []]);
  assert.deepEqual(files(dir), inThread, 'the worker wrote the index the main thread wrote');

  const capped = await mem(['-C', ws, 'archive', '--rebuild'], { env: CAPPED });
  assert.equal(capped.code, 0, capped.stderr);
  assert.match(capped.stderr, WARNING);
  assert.deepEqual(files(dir), inThread, 'the same index, and no temp file of the dead worker left');

  // The archive lock is lost while the worker builds (its lock folder taken away; the main thread's
  // lock library notices at its next refresh and the main thread tells the worker): the worker writes
  // nothing more, the command says so in one line and fails, and the archive is as it was.
  editConfig(ws, (cfg) => (cfg.limits = { lockStaleMs: 2000, lockUpdateMs: 500 }));
  const child = startMem(['-C', ws, 'archive', '--rebuild'], {
    env: { MEM_TEST_HOOKS: '1', MEM_FAULT: 'pause-archive-worker', MEM_FAULT_MS: '20000' },
  });
  const lost = finished(child);
  await waitForStderr(child, 'archive worker paused before building');
  rmSync(join(ws, 'memory', '.locks', 'archive.lock'), { recursive: true, force: true });
  const r2 = await lost;
  assert.equal(r2.code, 3, r2.stderr);
  assert.match(
    r2.stderr,
    /^archive worker paused before building\nmem: index: lost the "archive" lock \([^\n]*\); stopped before writing\n$/,
  );
  assert.deepEqual(Object.keys(files(dir)), Object.keys(inThread), 'no temp file left');
  assert.deepEqual(files(dir), inThread, 'nothing written');
  editConfig(ws, (cfg) => delete cfg.limits);

  rmSync(dir, { recursive: true });
  const fresh = await mem(['-C', ws, 'archive'], { env: CAPPED });
  assert.match(fresh.stderr, WARNING, 'a first build reads every transcript: in the worker too');
  assert.deepEqual(files(dir), inThread);

  rmSync(dir, { recursive: true });
  writeFileSync(dir, 'not a folder');
  const broken = await mem(['-C', ws, 'archive', '--rebuild']);
  assert.equal(broken.code, 1);
  assert.equal(
    broken.stderr,
    'mem: cannot write .mem/archive/seg-000001.dict: a part of its path is a file, not a folder; the file is unchanged\n',
  );
});
