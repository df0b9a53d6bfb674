/**
 * `mem archive --rebuild` runs in a worker thread with a capped heap (src/archive/update-thread.ts):
 * it writes the index the in-thread update writes, byte for byte; a worker that runs out of its heap
 * (the test hook caps it at 1 MB) leaves no temp file, and the rebuild runs again in the main thread
 * with one warning and the same index; a config whose lines might not fit its heap keeps the rebuild
 * in the main thread; an errno from the worker reads as it did in the main thread.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { editConfig, exampleWorkspace, mem } from './helpers/cli.js';

const files = (dir: string) => Object.fromEntries(readdirSync(dir).sort().map((n) => [n, readFileSync(join(dir, n)).toString('base64')]));

test('a rebuild in its worker writes the same index; out of heap it runs again in the main thread; its errors read the same', async (t) => {
  const { ws, transcripts } = exampleWorkspace(t);
  // Quiet for 10 minutes: no Markdown turn is held back as still being written.
  const quiet = new Date(Date.now() - 10 * 60_000);
  for (const name of readdirSync(transcripts, { recursive: true, encoding: 'utf8' })) utimesSync(join(transcripts, name), quiet, quiet);
  const dir = join(ws, '.mem', 'archive');
  const first = await mem(['-C', ws, '--json', 'archive']);
  assert.equal(first.code, 0, first.stderr);
  const inThread = files(dir);
  assert.ok(Object.keys(inThread).some((n) => n.endsWith('.post')));

  const rebuilt = await mem(['-C', ws, '--json', 'archive', '--rebuild']);
  assert.equal(rebuilt.code, 0, rebuilt.stderr);
  assert.equal(rebuilt.stderr, '');
  const r = JSON.parse(rebuilt.stdout) as { filesRead: number; docs: number; warnings: string[] };
  assert.deepEqual([r.filesRead, r.docs, r.warnings], [6, (JSON.parse(first.stdout) as { docs: number }).docs, []]);
  assert.deepEqual(files(dir), inThread, 'the worker wrote the index the main thread wrote');

  const capped = await mem(['-C', ws, 'archive', '--rebuild'], { env: { MEM_TEST_HOOKS: '1', MEM_ARCHIVE_WORKER_HEAP_MB: '1' } });
  assert.equal(capped.code, 0, capped.stderr);
  assert.match(capped.stderr, /^warning: the rebuild needed more than the 1 MB heap of its worker thread .*; it ran again without that limit\n$/);
  assert.deepEqual(files(dir), inThread, 'the same index, and no temp file of the dead worker left');

  // Lines of up to 32 MB might not fit the worker's heap: such a rebuild stays in the main thread.
  editConfig(ws, (cfg) => (cfg.limits = { maxLineBytes: 32 * 1024 * 1024 }));
  const wide = await mem(['-C', ws, 'archive', '--rebuild'], { env: { MEM_TEST_HOOKS: '1', MEM_ARCHIVE_WORKER_HEAP_MB: '1' } });
  assert.deepEqual([wide.code, wide.stderr], [0, '']);
  assert.deepEqual(files(dir), inThread);

  rmSync(dir, { recursive: true });
  writeFileSync(dir, 'not a folder');
  const broken = await mem(['-C', ws, 'archive', '--rebuild']);
  assert.equal(broken.code, 1);
  assert.equal(broken.stderr, `mem: a part of its path is a file, not a folder (${dir})\n`);
});
