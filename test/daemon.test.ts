/**
 * `mem daemon` (docs/operations.md): real daemons as child processes on temp workspaces, with
 * test-only schedules of a few seconds (node-cron's seconds field) and generous deadlines.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { entryIds, finished, mem, startMem, tempDir } from './helpers/cli.js';
import { daemonWorkspace, freshTranscript, jobLog, stderrOf, waitFor } from './helpers/daemon.js';
import { startOpenAIServer } from './helpers/openai-server.js';

describe('mem daemon', () => {
  test('runs microsync on its schedule, refreshes the index, refuses a second daemon, stops cleanly on SIGTERM', async (t) => {
    const { ws, fresh } = daemonWorkspace(t);
    freshTranscript(fresh, 'session-a', [
      'move the event store to PostgreSQL',
      'ship the billing service on Tuesdays only',
    ]);
    const d = startMem(['-C', ws, 'daemon']);
    const log = stderrOf(d);
    t.after(() => d.kill('SIGKILL'));
    await waitFor('the pid file', () => existsSync(join(ws, '.mem', 'daemon.pid')), 20_000);

    const second = await mem(['-C', ws, 'daemon']);
    assert.equal(second.code, 3, second.stderr);
    assert.match(second.stderr, /a daemon already runs on .* \(pid \d+/);

    // The job-log line is written last (after the index refresh), so wait for it, not for the entries.
    await waitFor(
      'a logged microsync run that added entries',
      () => jobLog(ws).find((l) => l.job === 'microsync' && (l.counts.entriesAdded ?? 0) >= 2),
      30_000,
    );
    const ids = entryIds(ws);
    assert.ok(
      ids.some((id) => id.includes('move-the-event-store-to-postgresql')),
      ids.join('\n'),
    );
    const runs = jobLog(ws).filter((l) => l.job === 'microsync');
    assert.ok(
      runs.every((l) => l.trigger === 'daemon' && l.outcome === 'ok'),
      JSON.stringify(runs),
    );
    assert.ok(
      runs.some((l) => (l.counts.entriesAdded ?? 0) >= 2),
      JSON.stringify(runs),
    );

    // The new Markdown makes the watcher ask for an index run (a child `mem index`).
    const index = await waitFor(
      'an index run after the change',
      () => jobLog(ws).find((l) => l.job === 'index'),
      30_000,
    );
    assert.equal(index.outcome, 'ok', JSON.stringify(index));
    assert.ok(existsSync(join(ws, '.mem', 'index')), 'the index was built');

    d.kill('SIGTERM');
    const r = await finished(d, 20_000);
    assert.equal(r.code, 0, log.text());
    assert.match(log.text(), /daemon: SIGTERM: stopping[\s\S]*daemon: stopped/);
    assert.ok(!existsSync(join(ws, '.mem', 'daemon.pid')), 'pid file removed');
    // Overlap: runs every 2 s that take longer are skipped, never run twice at once.
    const ms = jobLog(ws)
      .filter((l) => l.job === 'microsync')
      .map((l) => [Date.parse(l.start), Date.parse(l.end)] as const);
    for (let i = 1; i < ms.length; i++) assert.ok(ms[i]![0] >= ms[i - 1]![1], 'microsync runs never overlap');
  });

  test('a job over its time limit is stopped, its lock released, a failure logged and onFailure run; the next run works', async (t) => {
    const llm = await startOpenAIServer();
    t.after(() => llm.close());
    llm.chat.enqueue({ type: 'delay', ms: 120_000, then: { type: 'content', content: '{"entries": []}' } });
    llm.chat.handler = () => ({ entries: [] });
    const root = tempDir(t);
    const { ws, fresh } = daemonWorkspace(t, (cfg) => {
      cfg.llm = { baseURL: llm.url, model: 'test-model', timeoutMs: 120_000, maxRetries: 0 };
      cfg.schedule = { microsync: '*/4 * * * * *', wrapup: 'off', compound: 'off' };
      (cfg.limits as Record<string, unknown>).jobTimeoutMs = { microsync: 6000 };
      cfg.onFailure = `echo >> "${join(root, 'failures.txt')}"`;
      cfg.daemon = { index: false, killGraceMs: 2000 };
    });
    freshTranscript(fresh, 'session-b', ['use pnpm instead of npm']);
    const d = startMem(['-C', ws, 'daemon'], { env: { OPENAI_API_KEY: 'test' } });
    const log = stderrOf(d);
    t.after(() => d.kill('SIGKILL'));

    await waitFor('the hanging LLM call', () => llm.chat.requests.length >= 1, 30_000);
    const st = JSON.parse((await mem(['-C', ws, 'status', '--json'])).stdout) as {
      locks: Array<{ name: string; holders: Array<{ job: string; pid: number; trigger: string }> }>;
      workspace: { daemon: { running: boolean } };
    };
    const held = st.locks.find((l) => l.name === 'microsync');
    assert.ok(held, JSON.stringify(st.locks));
    assert.deepEqual(
      held.holders.map((h) => [h.job, h.trigger]),
      [['microsync', 'daemon']],
      'status names who holds the lock',
    );
    assert.equal(st.workspace.daemon.running, true);
    const timeout = await waitFor(
      'a timeout line',
      () => jobLog(ws).find((l) => l.job === 'microsync' && l.outcome === 'timeout'),
      30_000,
    );
    assert.equal(timeout.trigger, 'daemon');
    assert.match(timeout.message ?? '', /exceeded its time limit of 6s and was stopped/);
    assert.ok(!existsSync(join(ws, 'memory', '.locks', 'microsync.lock')), 'the stopped run released its lock');
    assert.ok(
      !existsSync(join(ws, '.mem', 'running', `microsync.${timeout.pid}.json`)),
      'and its running marker is gone',
    );
    await waitFor(
      'the onFailure hook',
      () => existsSync(join(root, 'failures.txt')) && readFileSync(join(root, 'failures.txt'), 'utf8'),
      10_000,
    );
    assert.match(readFileSync(join(root, 'failures.txt'), 'utf8'), /^microsync microsync exceeded its time limit/m);

    const ok = await waitFor(
      'a later run that works',
      () => jobLog(ws).find((l) => l.job === 'microsync' && l.outcome === 'ok'),
      30_000,
    );
    assert.ok(Date.parse(ok.start) > Date.parse(timeout.end));
    assert.match(log.text(), /daemon: microsync timeout/);
    d.kill('SIGINT');
    assert.equal((await finished(d, 20_000)).code, 0, log.text());
  });

  test('the index refresh watches an extraPaths folder given as ~/… in the home folder', async (t) => {
    const home = tempDir(t);
    mkdirSync(join(home, 'notes'));
    const { ws } = daemonWorkspace(t, (cfg) => {
      cfg.schedule = { microsync: 'off', wrapup: 'off', compound: 'off' };
      cfg.extraPaths = ['~/notes'];
    });
    const d = startMem(['-C', ws, 'daemon'], { env: { HOME: home, MEM_SEARCH_SERVER: 'off' } });
    const log = stderrOf(d);
    t.after(() => d.kill('SIGKILL'));
    await waitFor('the daemon to start', () => /daemon: pid \d+/.test(log.text()), 20_000);
    // Written again each second until the watcher (ready a moment after the start) reports one.
    let n = 0;
    await waitFor(
      'an index run after a change in ~/notes',
      () => {
        writeFileSync(join(home, 'notes', `note-${++n}.md`), `# Note ${n}\n`);
        return jobLog(ws).some((l) => l.job === 'index');
      },
      15_000,
      1_000,
    );
    assert.ok(!existsSync(join(ws, '~')), 'no folder named ~ in the workspace');
    d.kill('SIGTERM');
    assert.equal((await finished(d, 20_000)).code, 0, log.text());
  });

  test('a bad cron expression is a clear config error', async (t) => {
    const { ws } = daemonWorkspace(t, (cfg) => (cfg.schedule = { microsync: '0 25 * * *' }));
    const r = await mem(['-C', ws, 'daemon']);
    assert.equal(r.code, 4);
    assert.match(r.stderr, /schedule\.microsync: "0 25 \* \* \*" is not a cron expression \(hour "25"/);
  });

  test('a stale pid file of a dead daemon is taken over', async (t) => {
    const { ws } = daemonWorkspace(t, (cfg) => (cfg.daemon = { index: false }));
    mkdirSync(join(ws, '.mem'), { recursive: true });
    writeFileSync(
      join(ws, '.mem', 'daemon.pid'),
      JSON.stringify({ pid: 999_999, host: (await import('node:os')).hostname(), start: '2026-01-01T00:00:00Z' }),
    );
    const d = startMem(['-C', ws, 'daemon']);
    const log = stderrOf(d);
    await waitFor('the daemon to start', () => /daemon: pid \d+/.test(log.text()), 20_000);
    assert.equal(JSON.parse(readFileSync(join(ws, '.mem', 'daemon.pid'), 'utf8')).pid, d.pid);
    d.kill('SIGTERM');
    assert.equal((await finished(d, 20_000)).code, 0);
  });
});

describe('daemon run rules (pure)', async () => {
  const { decide, JobQueue } = await import('../src/daemon/queue.js');

  test('no overlapping runs of a job; wrapup and compound never together; index waits during compound', () => {
    assert.equal(decide('microsync', new Set(['microsync']), new Set()), 'skip');
    assert.equal(decide('wrapup', new Set(['compound']), new Set()), 'wait');
    assert.equal(decide('compound', new Set(['wrapup']), new Set()), 'wait');
    assert.equal(decide('index', new Set(['compound']), new Set()), 'wait');
    assert.equal(decide('index', new Set(['microsync']), new Set()), 'start');
    assert.equal(
      decide('index', new Set(['index']), new Set()),
      'wait',
      'changes during an index run are indexed after it',
    );
    assert.equal(decide('index', new Set(['index']), new Set(['index'])), 'skip');
  });

  test('a queue started with compound runs wrapup only after it, and never two at once', async () => {
    const events: string[] = [];
    const gates = new Map<string, () => void>();
    const q = new JobQueue(
      (job) => {
        events.push(`start ${job}`);
        return new Promise<void>((r) => gates.set(job, () => (events.push(`end ${job}`), r())));
      },
      (job, why) => events.push(`skip ${job}: ${why}`),
    );
    q.request('compound');
    q.request('wrapup');
    q.request('index');
    q.request('compound');
    assert.deepEqual(events, ['start compound', 'skip compound: its previous run is still running']);
    gates.get('compound')!();
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(events.slice(2), ['end compound', 'start wrapup', 'start index']);
  });
});
