/**
 * A job whose configuration does not load still fails visibly: its line in the job log (with the
 * default log size), under cron as under the daemon, and onFailure from the daemon, which runs it
 * once for every failed run it started, from the configuration as it last loaded.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { editConfig, exampleWorkspace, finished, mem, startMem } from './helpers/cli.js';
import { daemonWorkspace, jobLog, stderrOf, waitFor } from './helpers/daemon.js';

test('under the daemon, a failed run is logged once and onFailure runs once, also when the configuration breaks', async (t) => {
  const { ws, root, fresh } = daemonWorkspace(t, (cfg) => (cfg.daemon = { index: false, killGraceMs: 2000 }));
  editConfig(ws, (cfg) => (cfg.onFailure = `echo >> "${join(root, 'failures.txt')}"`));
  // A source that is a FIFO: each microsync fails (exit 1) with a valid configuration.
  execFileSync('mkfifo', [fresh]);
  const failures = () =>
    existsSync(join(root, 'failures.txt'))
      ? readFileSync(join(root, 'failures.txt'), 'utf8').split('\n').filter(Boolean)
      : [];
  const d = startMem(['-C', ws, 'daemon']);
  const log = stderrOf(d);
  t.after(() => d.kill('SIGKILL'));
  await waitFor(
    'a failed run notified',
    () => failures().some((l) => /^microsync source path is neither a file nor a directory/.test(l)),
    30_000,
  );

  editConfig(ws, (cfg) => (cfg.sources = 5));
  const broken = await waitFor(
    'a failed run with the broken configuration',
    () => jobLog(ws).find((l) => l.job === 'microsync' && l.exitCode === 4),
    30_000,
  );
  assert.equal(broken.trigger, 'daemon');
  assert.equal(broken.outcome, 'failed');
  assert.match(broken.message ?? '', /^mem\.config\.json: sources: /);
  await waitFor(
    'onFailure for it',
    () => failures().some((l) => /^microsync mem\.config\.json: sources: /.test(l)),
    10_000,
  );

  d.kill('SIGTERM');
  assert.equal((await finished(d, 20_000)).code, 0, log.text());
  const failed = jobLog(ws).filter((l) => l.job === 'microsync' && l.outcome !== 'ok');
  assert.deepEqual(
    failures(),
    failed.map((l) => `microsync ${l.message}`),
    'one onFailure per failed run, in order',
  );
  assert.equal(new Set(failed.map((l) => l.pid)).size, failed.length, 'one line per run');
});

test('under cron, a job whose configuration does not load logs its failure (exit 4), on the lean path too', async (t) => {
  const { ws } = exampleWorkspace(t);
  editConfig(ws, (cfg) => (cfg.sources = 5));
  for (const job of ['microsync', 'index']) {
    const r = await mem(['-C', ws, job], { env: { MEM_TRIGGER: 'cron' } });
    assert.equal(r.code, 4, r.stderr);
    const line = jobLog(ws).at(-1);
    assert.deepEqual([line?.job, line?.trigger, line?.outcome, line?.exitCode], [job, 'cron', 'failed', 4]);
    assert.equal(`mem: ${line?.message}\n`, r.stderr);
  }
});
