/**
 * `mem index` run by the resident search server (src/search/server/index-job.ts, src/cli/served-index.ts)
 * with real processes: the server's watched file list stands in for a scan, and the outcome must be
 * exactly a cold run's. Two copies of one workspace take the same edits; one is indexed through its
 * server, the other cold (MEM_SEARCH_SERVER=off), and their counters, manifests and answers compared.
 * What a cold run does better (many changes, a rebuild, embeddings, a busy lock) is declined.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  cpSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  utimesSync,
  watch,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { BIN, childEnv, editConfig, finished, mem, startMem, tempDir } from './helpers/cli.js';
import { onTerminal } from './helpers/terminal.js';
import { killAfter, startServer, status, waitFor } from './helpers/search-server.js';
import { FIXTURE, index, readTier, search } from './search-helpers.js';
import { acquireLock } from '../src/write/locks.js';
import { clientEnv, exchange, PROTOCOL } from '../src/search/server/protocol.js';
import { socketAddress } from '../src/search/server/address.js';

type IndexJson = Awaited<ReturnType<typeof index>>;

/** The JSON of `mem --json index` without its time. */
function counters(r: IndexJson): unknown {
  return { tiers: r.tiers, embeddings: r.embeddings, warnings: r.warnings };
}

async function serverUp(t: { after(fn: () => void): void }, ws: string) {
  const { child } = startServer(ws, ['--idle-ms', '600000']);
  killAfter(t, child);
  return waitFor('the server', async () => (await status(ws)) ?? false, 60_000, 200);
}

test("with the server running, a plain mem index is run there: the same counters, manifest and answers as a cold run, logged as the client's run", async (t) => {
  const dir = tempDir(t, 'memfold-served-index-');
  const [a, b] = [join(dir, 'served'), join(dir, 'cold')];
  for (const ws of [a, b]) {
    cpSync(FIXTURE, ws, { recursive: true });
    await index(ws);
  }
  await serverUp(t, a);
  const note = (n: number) => `\n## Note: axolotl ${n}\n- id: NOTE-2026112${n}-axolotl\n- why: edit number ${n}\n`;
  const edits: [string, (ws: string) => void][] = [
    ['one entry appended', (ws) => appendFileSync(join(ws, 'memory', '2026-11-20.md'), note(1))],
    [
      'a file added in a new folder',
      (ws) => {
        mkdirSync(join(ws, 'memory', 'projects', 'zoo'), { recursive: true });
        writeFileSync(join(ws, 'memory', 'projects', 'zoo', 'tank.md'), `# Tank${note(2)}`);
      },
    ],
    [
      'a file renamed',
      (ws) =>
        renameSync(join(ws, 'memory', 'projects', 'zoo', 'tank.md'), join(ws, 'memory', 'projects', 'zoo', 'pond.md')),
    ],
    [
      'a cold-tier file edited',
      (ws) =>
        appendFileSync(
          join(ws, 'second-brain', 'summaries', '2026-11-21-wrapup.md'),
          '\nThe axolotl pond needs a filter.\n',
        ),
    ],
    [
      'a file touched',
      (ws) =>
        utimesSync(
          join(ws, 'memory', '2026-11-20.md'),
          new Date('2026-11-21T10:00:00Z'),
          new Date('2026-11-21T10:00:00Z'),
        ),
    ],
    ['a file removed', (ws) => rmSync(join(ws, 'memory', 'projects'), { recursive: true })],
    ['nothing', () => {}],
  ];
  // The server marks each run as running in the client's name while it lasts (mem status names the lock's holder from it).
  mkdirSync(join(a, '.mem', 'running'), { recursive: true });
  const marked = new Set<string>();
  const watcher = watch(join(a, '.mem', 'running'), (_event, name) => name && marked.add(name));
  t.after(() => watcher.close());
  let indexed = 0;
  for (const [what, edit] of edits) {
    edit(a);
    edit(b);
    const child = startMem(['-C', a, '--json', 'index'], { env: { MEM_TRIGGER: 'cron' } });
    const served = await finished(child);
    assert.equal(served.code, 0, served.stderr);
    await waitFor(`${what}: the run's marker`, () => marked.has(`index.${child.pid}.json`), 10_000, 20);
    assert.deepEqual(readdirSync(join(a, '.mem', 'running')), [], `${what}: the marker is gone once the run is done`);
    const cold = await index(b);
    assert.deepEqual(counters(JSON.parse(served.stdout)), counters(cold), what);
    assert.equal((await status(a))?.indexed, ++indexed, `${what}: run by the server`);
    // Logged as the client's run (its pid and trigger), as a cold run logs itself.
    const log = readFileSync(join(a, '.mem', 'logs', 'jobs.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const last = log.at(-1);
    assert.deepEqual(
      [last.job, last.outcome, last.exitCode, last.pid, last.trigger],
      ['index', 'ok', 0, child.pid, 'cron'],
      what,
    );
    for (const tier of ['warm', 'cold'] as const) {
      const [x, y] = [readTier(a, tier), readTier(b, tier)];
      assert.deepEqual(Object.keys(x.files).sort(), Object.keys(y.files).sort(), `${what}: ${tier} manifest`);
      assert.deepEqual(
        [x.head.docCount, x.head.deadCount, x.head.lenSum],
        [y.head.docCount, y.head.deadCount, y.head.lenSum],
        `${what}: ${tier} counts`,
      );
    }
  }
  // The served runs left nothing for a cold one to do, and both copies answer alike.
  const after = await mem(['-C', a, '--json', 'index'], { env: { MEM_SEARCH_SERVER: 'off' } });
  assert.equal(after.code, 0, after.stderr);
  for (const key of ['changed', 'added', 'removed'] as const) {
    assert.equal(
      Object.values(JSON.parse(after.stdout).tiers as Record<string, Record<string, number>>).reduce(
        (n, c) => n + c[key]!,
        0,
      ),
      0,
      key,
    );
  }
  for (const q of ['axolotl', 'postgres', '为什么放弃 Redis 缓存']) {
    const [x, y] = [await search(a, q, '--deep'), await search(b, q, '--deep')];
    assert.deepEqual(
      x.results.map((r) => [r.path, r.startLine, r.id]),
      y.results.map((r) => [r.path, r.startLine, r.id]),
      q,
    );
  }
  // The server's reply is the run as data (the client prints it with the cold run's code), never printed text.
  appendFileSync(join(a, 'memory', '2026-11-20.md'), note(3));
  const real = realpathSync(a);
  const reply = await exchange(
    socketAddress(real),
    {
      v: PROTOCOL,
      build: (await status(a))!.build,
      op: 'index',
      workspace: real,
      env: clientEnv(childEnv({})),
      pid: process.pid,
    },
    10_000,
    60_000,
  );
  assert.ok(reply && reply !== 'absent' && reply.ok && 'index' in reply, JSON.stringify(reply));
  assert.deepEqual(Object.keys(reply).sort(), ['index', 'ok', 'v']);
  assert.deepEqual(Object.keys(reply.index).sort(), ['result', 'seconds', 'warnings']);
  assert.equal(reply.index.result.tiers.warm.changed, 1, 'the edit, indexed');
  assert.equal(typeof reply.index.seconds, 'number');
});

test('a served mem index prints what a cold run prints, byte for byte: on a terminal, with -q, and a job log it cannot append to (its warning last, uncoloured, even with -q)', async (t) => {
  if (spawnSync('script', ['--version']).status !== 0) return t.skip('no util-linux script(1) to make a terminal');
  const dir = tempDir(t, 'memfold-served-index-out-');
  const [a, b] = [join(dir, 'served'), join(dir, 'cold')];
  for (const ws of [a, b]) {
    cpSync(FIXTURE, ws, { recursive: true });
    editConfig(ws, (cfg) => (cfg.futureKey = 1)); // a configuration warning on every run
    await index(ws);
  }
  await serverUp(t, a);
  // The run's time is the one thing that differs.
  const shown = (text: string) =>
    text
      .replace(/\d+\.\d+ s\b/g, 'T s')
      .replaceAll(a, 'WS')
      .replaceAll(b, 'WS');
  const terminal = { TERM: 'xterm', CI: '', NO_COLOR: '' };
  const cases: [string, string[], Record<string, string>, (ws: string) => void][] = [
    ['on a terminal', [], terminal, () => {}],
    ['on a terminal, -q', ['-q'], terminal, () => {}],
    [
      'a job log it cannot append to, on a terminal',
      [],
      terminal,
      (ws) => {
        rmSync(join(ws, '.mem', 'logs', 'jobs.jsonl'), { force: true });
        mkdirSync(join(ws, '.mem', 'logs', 'jobs.jsonl'), { recursive: true });
      },
    ],
    ['the same, -q', ['-q'], terminal, () => {}],
  ];
  for (const [what, flags, env, prepare] of cases) {
    for (const ws of [a, b]) {
      prepare(ws);
      appendFileSync(join(ws, 'memory', '2026-11-20.md'), `\n## Note: ${what}\n- why: one more run\n`);
    }
    const served = await onTerminal([process.execPath, BIN, ...flags, '-C', a, 'index'], env);
    const cold = await onTerminal([process.execPath, BIN, ...flags, '-C', b, 'index'], {
      ...env,
      MEM_SEARCH_SERVER: 'off',
    });
    assert.match(cold, /indexed: /, what);
    assert.equal(shown(served), shown(cold), what);
    if (what.includes('job log'))
      assert.match(
        served,
        /indexed: [^\n]*\n(.|\n)*warning: could not append to the job log/,
        `${what}: the warning comes last`,
      );
  }
  assert.equal((await status(a))?.indexed, cases.length, "each run was the server's");
});

test('the server declines what a cold run does better, and the client indexes itself: many changes, a tier to rebuild, --rebuild, embeddings, a busy lock', async (t) => {
  const dir = tempDir(t, 'memfold-served-index-');
  const ws = join(dir, 'ws');
  cpSync(FIXTURE, ws, { recursive: true });
  await index(ws);
  const up = await serverUp(t, ws);
  const declined = async (what: string, args: string[], check: (r: IndexJson) => void) => {
    const before = (await status(ws))!;
    const r = await index(ws, ...args);
    check(r);
    const now = (await status(ws))!;
    assert.equal(now.indexed, before.indexed, `${what}: not run by the server`);
    return now.cold - before.cold;
  };
  // More than 200 files changed: indexed here (with the progress bar a terminal would show).
  mkdirSync(join(ws, 'memory', 'bulk'));
  for (let i = 0; i < 201; i++)
    writeFileSync(
      join(ws, 'memory', 'bulk', `n${i}.md`),
      `## Note: bulk ${i}\n- id: NOTE-bulk-${i}\n- why: many files\n`,
    );
  assert.equal(await declined('201 new files', [], (r) => assert.equal(r.tiers.warm!.added, 201)), 1);
  // A tier file gone: the tier is rebuilt here.
  rmSync(join(ws, '.mem', 'index', 'warm.json'));
  assert.equal(await declined('a missing tier file', [], (r) => assert.equal(r.tiers.warm!.rebuilt, 'missing')), 1);
  // --rebuild never asks.
  assert.equal(await declined('--rebuild', ['--rebuild'], (r) => assert.equal(r.tiers.warm!.rebuilt, 'requested')), 0);
  // Embeddings configured (the provider's key is the client's): indexed here, and the provider is
  // unreachable, so lexical with a warning, as a cold run says it.
  editConfig(ws, (cfg) => (cfg.embedding = { baseURL: 'http://127.0.0.1:9/v1', model: 'm', dimensions: 4 }));
  appendFileSync(
    join(ws, 'memory', '2026-11-20.md'),
    '\n## Note: embeddings\n- id: NOTE-20261120-emb\n- why: configured\n',
  );
  assert.equal(await declined('embeddings', [], (r) => assert.match(r.warnings.join('\n'), /embeddings/)), 1);
  editConfig(ws, (cfg) => delete cfg.embedding);
  // A busy index lock: the server does not wait; the client waits as configured, then exits 3.
  editConfig(ws, (cfg) => (cfg.limits = { lockWaitMs: 300 }));
  appendFileSync(
    join(ws, 'memory', '2026-11-20.md'),
    '\n## Note: locked\n- id: NOTE-20261120-locked\n- why: the lock is held\n',
  );
  const lock = await acquireLock(ws, 'index', { waitMs: 0, staleMs: 60_000 });
  const before = (await status(ws))!;
  const busy = await mem(['-C', ws, 'index']);
  await lock.release();
  assert.equal(busy.code, 3, busy.stderr);
  assert.match(busy.stderr, /another "index" run holds/);
  assert.equal((await status(ws))!.cold, before.cold + 1);
  // Free again: the same edit is indexed by the server.
  const served = await index(ws);
  assert.equal(served.tiers.warm!.changed, 1);
  assert.equal((await status(ws))!.indexed, up.indexed + 1);
  assert.equal((await search(ws, 'locked')).results[0]?.id, 'NOTE-20261120-locked');
});

test("with no server, mem index runs here and starts one on demand (as a search does); the next run is the server's", async (t) => {
  const ws = join(tempDir(t, 'memfold-served-index-'), 'ws');
  cpSync(FIXTURE, ws, { recursive: true });
  const env = { MEM_SEARCH_SERVER: 'spawn', MEM_SEARCH_SERVER_IDLE_MS: '60000' };
  await status(ws); // (remembers the real path for the clean-up, after the folder is gone)
  t.after(async () => {
    const s = await status(ws);
    if (s) process.kill(s.pid, 'SIGTERM');
  });
  const first = await mem(['-C', ws, '--json', 'index'], { env });
  assert.equal(first.code, 0, first.stderr);
  assert.equal(JSON.parse(first.stdout).tiers.warm.added, 3);
  const up = await waitFor('the on-demand server', async () => (await status(ws)) ?? false, 60_000, 200);
  assert.equal([up.mode, up.indexed].join(' '), 'on-demand 0');
  appendFileSync(
    join(ws, 'memory', '2026-11-21.md'),
    '\n## Note: on demand\n- id: NOTE-20261121-demand\n- why: the second run\n',
  );
  const second = await mem(['-C', ws, '--json', 'index'], { env });
  assert.equal(second.code, 0, second.stderr);
  assert.equal(JSON.parse(second.stdout).tiers.warm.changed, 1);
  assert.equal((await status(ws))?.indexed, 1);
});

test("a server that does not start the run (stopped with SIGSTOP) is left after a search's wait: mem index runs here", async (t) => {
  const ws = join(tempDir(t, 'memfold-served-index-'), 'ws');
  cpSync(FIXTURE, ws, { recursive: true });
  await index(ws);
  const up = await serverUp(t, ws);
  process.kill(up.pid, 'SIGSTOP');
  t.after(() => process.kill(up.pid, 'SIGCONT'));
  appendFileSync(
    join(ws, 'memory', '2026-11-21.md'),
    '\n## Note: stopped\n- id: NOTE-20261121-stopped\n- why: the server sleeps\n',
  );
  // Without the acknowledgement the client waited a minute: here it must be done well within 30 s.
  const r = await finished(
    startMem(['-C', ws, '--json', 'index'], { env: { MEM_SEARCH_SERVER_TIMEOUT_MS: '1000', MEM_DEBUG: '1' } }),
    30_000,
  );
  assert.equal(r.code, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).tiers.warm.changed, 1);
  assert.match(r.stderr, /search server: indexing here \(no reply in time\)/);
});
