/**
 * bin/mem.cjs compiles the search and index bundles from a V8 code cache (src/cli/compile-cache.ts):
 * written on the first run, used after, ignored when it does not check out, never in the workspace.
 */
import assert from 'node:assert/strict';
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { crc32 } from 'node:zlib';
import { memOk, ROOT, tempDir } from './helpers/cli.js';
import { searchWorkspace } from './search-helpers.js';

const OFF = { MEM_SEARCH_SERVER: 'off' };
const cacheFiles = (dir: string) => (existsSync(dir) ? readdirSync(dir).sort() : []);

/** The cache file with bytes of V8's data overwritten, its header kept (V8 accepts it, and crashes); with `sum`, a checksum that matches. */
function damaged(file: string, sum: boolean): Buffer {
  const bytes = readFileSync(file);
  bytes.fill(0xff, 20_000, 20_008);
  if (sum) bytes.writeUInt32LE(crc32(bytes.subarray(4)), 0);
  return bytes;
}

test('a cold search and mem index write their bundle\'s code cache once, then run from it with the same output', async (t) => {
  const ws = searchWorkspace(t);
  const cache = join(tempDir(t), 'cc');
  const env = { ...OFF, MEM_COMPILE_CACHE: cache };
  // MEMORY.md goes through remark, an ES module the index bundle requires (no import() in a cached bundle).
  const first = await memOk(['-C', ws, '--json', 'index', '--rebuild'], { env });
  assert.deepEqual(cacheFiles(cache).map((n) => n.split('-')[0]), ['index.cjs']);
  const search1 = await memOk(['-C', ws, '--json', 'search', 'sqlite'], { env });
  const files = cacheFiles(cache);
  assert.deepEqual(files.map((n) => n.split('-')[0]), ['index.cjs', 'search.cjs']);
  const written = files.map((n) => statSync(join(cache, n)).mtimeMs);
  const second = await memOk(['-C', ws, '--json', 'index', '--rebuild'], { env });
  const search2 = await memOk(['-C', ws, '--json', 'search', 'sqlite'], { env });
  assert.deepEqual(files.map((n) => statSync(join(cache, n)).mtimeMs), written, 'the second runs read the cache and leave it');
  assert.ok(JSON.parse(search1.stdout).results.length > 0);
  assert.equal(search2.stdout, search1.stdout);
  const counts = (out: string) => JSON.parse(out).tiers;
  assert.deepEqual(counts(second.stdout), counts(first.stdout));
  assert.ok(!readdirSync(ws).some((n) => n.includes('cjs')), 'nothing of the cache in the workspace');
  // Other Node flags: another cache beside this one, not a rewrite of it.
  await memOk(['-C', ws, 'search', 'sqlite'], { env: { ...env, NODE_OPTIONS: '--max-old-space-size=300' } });
  assert.equal(cacheFiles(cache).length, 3);
  assert.deepEqual(files.map((n) => statSync(join(cache, n)).mtimeMs), written);
});

test('a damaged code cache is caught by its checksum and written afresh; one in a folder others may write is never read', async (t) => {
  const ws = searchWorkspace(t);
  const cache = join(tempDir(t), 'cc');
  const env = { ...OFF, MEM_COMPILE_CACHE: cache };
  const good = await memOk(['-C', ws, '--json', 'search', 'sqlite'], { env });
  const [name] = cacheFiles(cache);
  const file = join(cache, name!);
  const bad = damaged(file, false);
  writeFileSync(file, bad);
  const again = await memOk(['-C', ws, '--json', 'search', 'sqlite'], { env });
  assert.equal(again.stdout, good.stdout);
  assert.ok(!readFileSync(file).equals(bad), 'rewritten by the run that could not use it');

  // A cache V8 would run (and crash on) in a folder group or others may write: not read, not rewritten.
  const shared = join(tempDir(t), 'shared');
  mkdirSync(shared);
  const planted = damaged(file, true);
  writeFileSync(join(shared, name!), planted);
  chmodSync(shared, 0o777);
  const r = await memOk(['-C', ws, '--json', 'search', 'sqlite'], { env: { ...OFF, MEM_COMPILE_CACHE: shared } });
  assert.equal(r.stdout, good.stdout);
  assert.ok(readFileSync(join(shared, name!)).equals(planted));
});

test('the code cache lives under $XDG_CACHE_HOME/memfold; MEM_COMPILE_CACHE=off keeps none', async (t) => {
  const ws = searchWorkspace(t);
  const xdg = tempDir(t);
  await memOk(['-C', ws, 'search', 'sqlite'], { env: { ...OFF, MEM_COMPILE_CACHE: undefined, XDG_CACHE_HOME: xdg } });
  const dir = join(xdg, 'memfold', 'compile-cache');
  assert.equal(cacheFiles(dir).length, 1);
  assert.equal(statSync(dir).mode & 0o777, 0o700);
  const none = tempDir(t);
  for (const off of ['off', 'false']) {
    const r = await memOk(['-C', ws, '--json', 'search', 'sqlite'], { env: { ...OFF, MEM_COMPILE_CACHE: off, XDG_CACHE_HOME: none }, cwd: none });
    assert.ok(JSON.parse(r.stdout).results.length > 0);
  }
  assert.deepEqual(readdirSync(none), []);
});

test('run by root with another user\'s HOME (sudo -E), mem makes no folder of root\'s in that home', { skip: process.getuid?.() !== 0 && 'needs root' }, async (t) => {
  const ws = searchWorkspace(t);
  const home = tempDir(t);
  chownSync(home, 65534, 65534);
  await memOk(['-C', ws, 'search', 'sqlite'], { env: { ...OFF, MEM_COMPILE_CACHE: undefined, XDG_CACHE_HOME: undefined, HOME: home } });
  assert.deepEqual(readdirSync(home), []);
});

test('the cached bundles hold no import(): code compiled from a V8 cache cannot run one on Node 20', () => {
  for (const name of ['search.cjs', 'index.cjs']) {
    const text = readFileSync(join(ROOT, 'dist', 'cli', name), 'utf8');
    assert.doesNotMatch(text, /\bimport\(/, name);
  }
});

test('a cache written by an index run that updated nothing file by file is completed once by the first run that did', async (t) => {
  const ws = searchWorkspace(t);
  const cache = join(tempDir(t), 'cc');
  const env = { ...OFF, MEM_COMPILE_CACHE: cache };
  const flag = (name: string) => readFileSync(join(cache, name))[4];
  await memOk(['-C', ws, '--json', 'index', '--rebuild'], { env });
  const [name] = cacheFiles(cache);
  const partial = readFileSync(join(cache, name!)).length;
  assert.equal(flag(name!), 0, 'a rebuild marks its cache partial');
  // Nothing to update: the partial cache stays as it is.
  await memOk(['-C', ws, '--json', 'index'], { env });
  assert.equal(readFileSync(join(cache, name!)).length, partial);
  writeFileSync(join(ws, 'memory', '2026-11-22.md'), '# 2026-11-22\n\n## Note: one more\n- id: NOTE-20261122-one-more\n- why: an edit to index\n');
  const edited = await memOk(['-C', ws, '--json', 'index'], { env });
  assert.equal(JSON.parse(edited.stdout).tiers.warm.added, 1);
  assert.deepEqual(cacheFiles(cache), [name], 'the same file, written again');
  assert.equal(flag(name!), 1);
  assert.ok(readFileSync(join(cache, name!)).length > partial, 'it holds the code the update compiled');
  const written = statSync(join(cache, name!)).mtimeMs;
  writeFileSync(join(ws, 'memory', '2026-11-22.md'), '# 2026-11-22\n\n## Note: one more\n- id: NOTE-20261122-one-more\n- why: a second edit\n');
  await memOk(['-C', ws, '--json', 'index'], { env });
  assert.equal(statSync(join(cache, name!)).mtimeMs, written, 'a full cache is not written again');
});

test('a search that ranked nothing leaves its cache partial; the first that ranked results completes it', async (t) => {
  const ws = searchWorkspace(t);
  const cache = join(tempDir(t), 'cc');
  const env = { ...OFF, MEM_COMPILE_CACHE: cache };
  await memOk(['-C', ws, 'index'], { env });
  const searchCache = () => cacheFiles(cache).find((n) => n.startsWith('search.cjs'))!;
  await memOk(['-C', ws, '--json', 'search', 'nomatchwordzz'], { env });
  assert.equal(readFileSync(join(cache, searchCache()))[4], 0);
  await memOk(['-C', ws, '--json', 'search', 'sqlite'], { env });
  assert.equal(readFileSync(join(cache, searchCache()))[4], 1);
});
