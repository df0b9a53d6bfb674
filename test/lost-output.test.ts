/**
 * `mem daemon` and `mem watch` outlive whoever reads their output (src/cli/lost-output.ts): with the
 * read end of their stdout and stderr closed (`mem daemon 2>&1 | head -n 1`), the next line they
 * write fails with EPIPE; they keep running, and still stop cleanly on SIGTERM.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { startMem } from './helpers/cli.js';
import { daemonWorkspace, jobLog, stderrOf, waitFor } from './helpers/daemon.js';

/** Closes the parent's end of the child's output pipes, as `head` does when it has read its line. */
function hangUp(child: ChildProcess): void {
  child.stdout!.destroy();
  child.stderr!.destroy();
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) =>
    child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code)),
  );
}

test('mem daemon keeps running its schedule when its output reader goes away', async (t) => {
  const { ws, fresh } = daemonWorkspace(t, (cfg) => (cfg.daemon = { index: false, killGraceMs: 2000 }));
  mkdirSync(fresh);
  const d = startMem(['-C', ws, 'daemon']);
  t.after(() => d.kill('SIGKILL'));
  const log = stderrOf(d);
  await waitFor('the daemon to start', () => /daemon: pid \d+/.test(log.text()), 20_000);
  hangUp(d);
  const since = Date.now();
  // Each run makes the daemon write a line ("daemon: microsync ok"): the first one hits the closed pipe.
  await waitFor(
    'two runs after the hang-up',
    () =>
      d.exitCode !== null || jobLog(ws).filter((l) => l.job === 'microsync' && Date.parse(l.start) > since).length >= 2,
    20_000,
  );
  assert.equal(d.exitCode, null, 'the daemon still runs');
  const code = exited(d);
  d.kill('SIGTERM');
  assert.equal(await code, 0);
  assert.ok(!existsSync(join(ws, '.mem', 'daemon.pid')), 'pid file removed');
});

test('mem watch keeps indexing when its output reader goes away', async (t) => {
  const { ws } = daemonWorkspace(t);
  const w = startMem(['-C', ws, 'watch', '--debounce', '200', '--no-server']);
  t.after(() => w.kill('SIGKILL'));
  const log = stderrOf(w);
  await waitFor('the watcher', () => /watch: watching/.test(log.text()), 20_000);
  hangUp(w);
  const runs = () => jobLog(ws).filter((l) => l.job === 'index' && l.pid === w.pid).length;
  const first = runs();
  for (const [i, word] of ['okapi', 'quokka'].entries()) {
    writeFileSync(join(ws, 'memory', `2026-11-2${i}.md`), `## Note: ${word}\n- id: NOTE-2026112${i}-${word}\n`);
    await waitFor(`an index run after writing ${word}`, () => w.exitCode !== null || runs() >= first + i + 1, 20_000);
    assert.equal(w.exitCode, null, 'watch still runs');
  }
  const code = exited(w);
  w.kill('SIGTERM');
  assert.equal(await code, 0);
});
