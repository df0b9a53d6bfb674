/** `mem watch` as a child process: picks up a new file (short debounce), polls when it must, exits on SIGTERM. */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { finished, startMem } from './helpers/cli.js';
import { ids, search, searchWorkspace } from './search-helpers.js';

/** Resolves when `pattern` has appeared `times` times in the child's stdout (or rejects after `ms`). */
function waitFor(
  child: ChildProcess,
  pattern: RegExp,
  times: number,
  ms: number,
  log: { text: string },
): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${pattern} ×${times}\n${log.text}`)), ms);
    const check = () => {
      if ((log.text.match(new RegExp(pattern.source, 'gm')) ?? []).length >= times) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', check);
    check();
  });
}

async function watchCase(t: { after(fn: () => void): void }, env: Record<string, string>, word: string) {
  const ws = searchWorkspace(t);
  const child = startMem(['-C', ws, 'watch', '--debounce', '300'], { env });
  const log = { text: '' };
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (log.text += d));
  const done = finished(child, 60_000);
  t.after(() => child.kill('SIGKILL'));
  await waitFor(child, /^indexed: /m, 1, 30_000, log);
  writeFileSync(
    join(ws, 'memory', '2026-11-24.md'),
    `## Note: ${word}\n- id: NOTE-20261124-${word}\n- why: seen by the watcher\n`,
  );
  await waitFor(child, /^indexed: .*1 added/m, 1, 30_000, log);
  child.kill('SIGTERM');
  const r = await done;
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /SIGTERM: stopping/);
  assert.match(r.stderr, /watch: stopped/);
  // Each of its index runs is in the job log, as a `mem index` run is.
  const runs = readFileSync(join(ws, '.mem', 'logs', 'jobs.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l))
    .filter((l) => l.pid === child.pid);
  assert.deepEqual(
    runs.map((l) => [l.job, l.trigger, l.outcome]),
    (log.text.match(/^indexed: /gm) ?? []).map(() => ['index', 'manual', 'ok']),
  );
  assert.ok(runs.length >= 2, JSON.stringify(runs));
  // The index (not a search-time overlay) holds the new entry.
  const res = await search(ws, word);
  assert.equal(res.indexBehind, false);
  assert.equal(ids(res)[0], `NOTE-20261124-${word}`);
  return r;
}

test('mem watch picks up a new file and exits cleanly on SIGTERM', async (t) => {
  await watchCase(t, {}, 'axolotl');
});

test('mem watch falls back to polling when native events fail, and says so', async (t) => {
  const r = await watchCase(t, { MEM_TEST_HOOKS: '1', MEM_WATCH_SIMULATE_ERROR: 'EMFILE' }, 'pangolin');
  assert.match(r.stderr, /cannot watch with native file events \(EMFILE\); falling back to polling/);
});
