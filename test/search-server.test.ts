/**
 * The resident search server (src/search/server/) with real child processes of the built CLI: started
 * by `mem watch`, by `mem daemon` and on demand by a search; a fresh `mem search --json` answers exactly
 * as the cold path does (MEM_SEARCH_SERVER=off), sees an edit at once, survives an index rebuilt
 * underneath, and the server stops by itself when idle, on SIGTERM (exit 0), when a second one finds it
 * serving, and with its parent. No timing assertions: waits are generous polls.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { test } from 'node:test';
import { BIN, childEnv, editConfig, finished, mem, ROOT, startMem, tempDir } from './helpers/cli.js';
import { onTerminal } from './helpers/terminal.js';
import { startOpenAIServer } from './helpers/openai-server.js';
import { index, NOW, searchWorkspace } from './search-helpers.js';
import { failedMarker } from '../src/search/server/client.js';
import { loadRecorder } from './helpers/loaded.js';
import { killAfter, MAIN, servedWorkspace, startServer, status, waitFor } from './helpers/search-server.js';
import { clientEnv, exchange, PROTOCOL } from '../src/search/server/protocol.js';
import { socketAddress } from '../src/search/server/address.js';
import { prepareDir } from '../src/search/server/claim.js';

/** One search, the same way twice: through whatever server runs, and cold (MEM_SEARCH_SERVER=off). */
async function both(
  ws: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ served: string; cold: string; stderr: [string, string] }> {
  const argv = ['-C', ws, '--json', '--now', NOW, 'search', ...args];
  const a = await mem(argv, { env });
  const b = await mem(argv, { env: { ...env, MEM_SEARCH_SERVER: 'off' } });
  assert.equal(a.code, 0, a.stderr);
  assert.equal(b.code, 0, b.stderr);
  return { served: a.stdout, cold: b.stdout, stderr: [a.stderr, b.stderr] };
}

const QUERIES: string[][] = [
  ['postgres'],
  ['SQLite events', '-k', '3'],
  ['为什么放弃 Redis 缓存'],
  ['event store', '--deep'],
  ['postgres', '--kind', 'decision', '--since', '2026-01-01'],
  ['flamingo dashboard', '--path', 'second-brain/**'],
  ['!!!'],
];

test('mem watch starts the search server; a fresh mem search answers from it exactly as the cold path does', async (t) => {
  const ws = searchWorkspace(t);
  const watch = startMem(['-C', ws, 'watch', '--debounce', '300']);
  killAfter(t, watch);
  const done = finished(watch, 120_000);
  const up = await waitFor('the watch server', async () => (await status(ws)) ?? false, 60_000, 200);
  assert.equal(up.mode, 'watch');
  const before = up.served;
  for (const q of QUERIES) {
    const r = await both(ws, q);
    assert.deepEqual(JSON.parse(r.served), JSON.parse(r.cold), `search ${q.join(' ')}`);
    assert.equal(r.served, r.cold, `byte for byte: search ${q.join(' ')}`);
    assert.equal(r.stderr[0], r.stderr[1], `same notices: search ${q.join(' ')}`);
  }
  const after = (await status(ws))!;
  // Every query but the punctuation-only one... and that one too: the server answers it (no results).
  assert.equal(after.served - before, QUERIES.length, 'each search was answered by the server');
  assert.equal(after.cold, 0);
  // MEM_SEARCH_SERVER=off never asks it.
  await both(ws, ['postgres'], { MEM_SEARCH_SERVER: 'off' });
  assert.equal((await status(ws))!.served, after.served);
  watch.kill('SIGTERM');
  const r = await done;
  assert.equal(r.code, 0, r.stderr);
  await waitFor('the watch server to stop with mem watch', async () => (await status(ws)) === undefined, 30_000, 200);
  assert.equal(existsSync(socketAddress(realpathSync(ws))), false, 'its socket is removed');
});

test('the server sees an edit at once (overlay, like cold search) and survives an index rebuilt underneath', async (t) => {
  const ws = searchWorkspace(t);
  await index(ws);
  const { child, done } = startServer(ws, ['--idle-ms', '600000']);
  killAfter(t, child);
  await waitFor('the server', async () => (await status(ws)) ?? false, 60_000, 200);
  const first = await both(ws, ['axolotl']);
  assert.equal(JSON.parse(first.served).results.length, 0);
  writeFileSync(
    join(ws, 'memory', '2026-11-24.md'),
    '## Note: axolotl habitat\n- id: NOTE-20261124-axolotl\n- why: seen by the server at once\n',
  );
  const edited = await both(ws, ['axolotl']);
  const res = JSON.parse(edited.served);
  assert.equal(res.results[0]?.id, 'NOTE-20261124-axolotl', edited.stderr[0]);
  assert.equal(res.indexBehind, true);
  assert.equal(edited.served, edited.cold);
  assert.equal(edited.stderr[0], edited.stderr[1]);
  assert.match(edited.stderr[0], /index is behind by 1 file/);
  // Rebuild the index under the running server: it reloads, and answers as cold search does.
  await index(ws, '--rebuild');
  for (const q of [['axolotl'], ['postgres'], ['event store', '--deep']]) {
    const r = await both(ws, q);
    assert.equal(r.served, r.cold, `after the rebuild: search ${q.join(' ')}`);
    assert.equal(r.stderr[0], r.stderr[1]);
  }
  assert.equal(JSON.parse((await both(ws, ['axolotl'])).served).indexBehind, false);
  // A new folder with a file in it, then deleting them, are seen too.
  mkdirSync(join(ws, 'memory', 'projects', 'zoo'), { recursive: true });
  writeFileSync(
    join(ws, 'memory', 'projects', 'zoo', 'notes.md'),
    '## Note: axolotl tank\n- id: NOTE-20261124-axolotl-tank\n- why: a new folder\n',
  );
  const folder = await both(ws, ['axolotl']);
  assert.equal(folder.served, folder.cold);
  assert.ok(JSON.parse(folder.served).results.some((r: { id: string }) => r.id === 'NOTE-20261124-axolotl-tank'));
  rmSync(join(ws, 'memory', 'projects'), { recursive: true });
  rmSync(join(ws, 'memory', '2026-11-24.md'));
  const gone = await both(ws, ['axolotl']);
  assert.equal(JSON.parse(gone.served).results.length, 0);
  assert.equal(gone.served, gone.cold);
  const s = (await status(ws))!;
  assert.equal(s.cold, 0, 'every query was answered by the server');
  assert.equal(s.served, 8);
  child.kill('SIGTERM');
  const r = await done;
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /search server stopped: SIGTERM/);
  assert.equal(existsSync(socketAddress(realpathSync(ws))), false, 'SIGTERM removes the socket');
});

test('a search starts a server on demand, later searches are served, and it stops by itself when idle', async (t) => {
  const ws = searchWorkspace(t);
  await index(ws);
  const env = { MEM_SEARCH_SERVER: 'spawn', MEM_SEARCH_SERVER_IDLE_MS: '2000' };
  await status(ws); // (remembers the real path for the clean-up below, after the folder is gone)
  t.after(async () => {
    const s = await status(ws);
    if (s) process.kill(s.pid, 'SIGTERM');
  });
  assert.equal(await status(ws), undefined);
  // No server yet: this search answers cold, and starts one.
  const first = await both(ws, ['postgres'], env);
  assert.equal(first.served, first.cold);
  const up = await waitFor('the on-demand server', async () => (await status(ws)) ?? false, 60_000, 200);
  assert.equal(up.mode, 'on-demand');
  assert.equal(up.idleMs, 2000);
  const r = await both(ws, ['SQLite events'], env);
  assert.equal(r.served, r.cold);
  assert.equal((await status(ws))?.served, up.served + 1);
  // Idle: it goes, and takes its socket with it.
  await waitFor('the idle exit', async () => (await status(ws)) === undefined, 60_000, 300);
  assert.equal(existsSync(socketAddress(realpathSync(ws))), false);
});

test("a plain search the server answers is printed before the CLI loads (bin/mem.cjs, served.ts): the cold bytes, with the configuration's k and warnings", async (t) => {
  const ws = searchWorkspace(t);
  editConfig(ws, (cfg) => {
    cfg.search = { k: 2 };
    cfg.futureKey = 1; // an unknown key: a warning on every run
  });
  await index(ws);
  const { child } = startServer(ws);
  killAfter(t, child);
  const up = await waitFor('the server', async () => (await status(ws)) ?? false, 60_000, 200);
  const rec = loadRecorder(join(ws, '..'));
  const cases: [string[], boolean][] = [
    [['--json', 'search', 'postgres'], true],
    [['search', 'SQLite events'], true],
    [['--json', 'search', 'event store', '--deep', '-k', '3'], true],
    [['-q', '--json', 'search', '为什么放弃 Redis 缓存', '--kind', 'decision'], true],
    // Marked on a terminal in Simplified too: the words come with the answer, the client loads no Chinese tables.
    [['search', '為什麼放棄 Redis 緩存'], true],
    // A kind no entry has (a typo): no results, and a notice that names the kinds.
    [['search', 'postgres', '--kind', 'decisions'], true],
    // Dates need the CLI (luxon): it asks the server itself.
    [['--json', 'search', 'postgres', '--since', '2026-01-01'], false],
  ];
  let fast = up.fast;
  for (const [args, first] of cases) {
    const served = await mem(['-C', ws, ...args], { env: rec.env });
    const cold = await mem(['-C', ws, ...args], { env: { MEM_SEARCH_SERVER: 'off' } });
    assert.equal(served.code, 0, served.stderr);
    assert.equal(served.stdout, cold.stdout, args.join(' '));
    assert.equal(served.stderr, cold.stderr, args.join(' '));
    if (!args.includes('-q')) assert.match(served.stderr, /unknown key "futureKey"/);
    if (args.includes('decisions'))
      assert.match(served.stderr, /--kind "decisions" is none of the kinds memfold writes/);
    const loaded = rec.take();
    assert.doesNotMatch(loaded, /node_modules\/minisearch\//, `${args.join(' ')}: no search code ran in the client`);
    if (first)
      assert.doesNotMatch(
        loaded,
        /dist\/cli\/search\.cjs|node_modules\/opencc-js\//,
        `${args.join(' ')}: not even loaded`,
      );
    const now = (await status(ws))!.fast;
    assert.equal(
      now - fast,
      first ? 1 : 0,
      `${args.join(' ')}: ${first ? 'asked before' : 'asked after'} reading the configuration`,
    );
    fast = now;
  }
  assert.equal(
    JSON.parse((await mem(['-C', ws, '--json', 'search', 'postgres OR sqlite OR events'])).stdout).results.length,
    2,
    'k from the configuration',
  );
  // The server replies with data, never with printed text: the client prints it with the cold path's code.
  const real = realpathSync(ws);
  const reply = await exchange(
    socketAddress(real),
    {
      v: PROTOCOL,
      build: up.build,
      op: 'search',
      workspace: real,
      env: clientEnv(childEnv({})),
      fill: true,
      query: '为什么放弃 Redis 缓存',
      deep: false,
      filters: {},
      lexicalOnly: false,
    },
    10_000,
  );
  assert.ok(reply && reply !== 'absent' && reply.ok && 'outcome' in reply, JSON.stringify(reply));
  assert.deepEqual(Object.keys(reply).sort(), ['ok', 'outcome', 'v', 'warnings']);
  assert.deepEqual(Object.keys(reply.outcome).sort(), ['marks', 'notices', 'response']);
  assert.match(reply.warnings!.join('\n'), /unknown key "futureKey"/);
  assert.ok(reply.outcome.marks!.includes('缓存'), 'the words to mark, worked out by the search');
  const cold = await mem(['-C', ws, '--json', 'search', '为什么放弃 Redis 缓存'], {
    env: { MEM_SEARCH_SERVER: 'off' },
  });
  assert.deepEqual(reply.outcome.response, JSON.parse(cold.stdout), 'the cold answer, as data');
  assert.doesNotMatch(JSON.stringify(reply), /\\u001b|warning:/, 'no colour and no printed line anywhere in it');
  assert.equal((await status(ws))!.served - up.served, cases.length + 2, 'the server answered every one');
});

test("on a terminal, a served search prints in colour as the cold one does, and without with NO_COLOR: the client prints the server's data itself", async (t) => {
  if (spawnSync('script', ['--version']).status !== 0) return t.skip('no util-linux script(1) to make a terminal');
  const { ws, up } = await servedWorkspace(t);
  const argv = [process.execPath, BIN, '-C', ws, 'search', 'postgres'];
  const terminal = { TERM: 'xterm', CI: '', NO_COLOR: '' };
  for (const env of [terminal, { ...terminal, NO_COLOR: '1' }]) {
    const served = await onTerminal(argv, env);
    const cold = await onTerminal(argv, { ...env, MEM_SEARCH_SERVER: 'off' });
    assert.match(cold, /postgres/i);
    assert.equal(served, cold, `NO_COLOR=${env.NO_COLOR}`);
    if (env.NO_COLOR) assert.doesNotMatch(served, /\x1b\[/);
    else assert.match(served, /\x1b\[36m/, 'paths in cyan');
  }
  assert.equal((await status(ws))!.fast - up.fast, 2, 'both asked before the client read any configuration');
});

test('something else on the socket that answers nonsense (not an object, a printout, malformed data): the search answers itself and prints once', async (t) => {
  const ws = searchWorkspace(t);
  await index(ws);
  prepareDir();
  const address = socketAddress(realpathSync(ws));
  const cold = await mem(['-C', ws, 'search', 'postgres'], { env: { MEM_SEARCH_SERVER: 'off' } });
  const outcome = (results: unknown[]) => ({
    response: { query: 'postgres', tier: 'warm', indexBehind: false, results },
    notices: [],
  });
  const replies = [
    'null',
    '42',
    '"x"',
    // A printout (what protocol 1 replied): no answer now.
    JSON.stringify({ v: PROTOCOL, ok: true, printed: [[1, 'X\n']] }),
    // Data the printing code could not print whole: a snippet that is no text, warnings that are not text, marks that are not words.
    JSON.stringify({
      v: PROTOCOL,
      ok: true,
      outcome: outcome([{ path: 'a.md', startLine: 1, endLine: 2, snippet: 5, source: null }]),
    }),
    JSON.stringify({ v: PROTOCOL, ok: true, outcome: outcome([]), warnings: [7] }),
    JSON.stringify({ v: PROTOCOL, ok: true, outcome: { ...outcome([]), marks: 'postgres' } }),
  ];
  for (const reply of replies) {
    const fake = net.createServer((sock) => sock.once('data', () => sock.end(`${reply}\n`)));
    await new Promise<void>((r) => fake.listen(address, r));
    try {
      const r = await mem(['-C', ws, 'search', 'postgres']);
      assert.equal(r.code, 0, `${reply}: ${r.stderr}`);
      assert.equal(r.stdout, cold.stdout, reply);
      assert.equal(r.stderr, cold.stderr, reply);
    } finally {
      await new Promise<void>((r) => fake.close(() => r()));
    }
  }
});

test('MEM_SEARCH_SERVER_TIMEOUT_MS that no timer can hold (or not a number) waits the default 3 s: the server answers, and no TimeoutOverflowWarning', async (t) => {
  const { ws, up } = await servedWorkspace(t);
  const cold = await mem(['-C', ws, '--json', 'search', 'postgres'], { env: { MEM_SEARCH_SERVER: 'off' } });
  for (const timeout of ['99999999999', '-5', 'soon']) {
    const r = await mem(['-C', ws, '--json', 'search', 'postgres'], { env: { MEM_SEARCH_SERVER_TIMEOUT_MS: timeout } });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '', timeout);
    assert.equal(r.stdout, cold.stdout, timeout);
  }
  assert.equal((await status(ws))!.served - up.served, 3, 'the server answered every one');
});

test('no server: a search answers cold and, by default in tests (no-spawn) or below the size threshold, starts none', async (t) => {
  const ws = searchWorkspace(t);
  await index(ws);
  const a = await both(ws, ['postgres']); // the test default: MEM_SEARCH_SERVER=no-spawn
  assert.equal(a.served, a.cold);
  const b = await both(ws, ['postgres'], { MEM_SEARCH_SERVER: 'auto' }); // a small index: not worth a server
  assert.equal(b.served, b.cold);
  await new Promise((r) => setTimeout(r, 1500));
  assert.equal(await status(ws), undefined);
});

test('one server per workspace: a second one exits quietly, a stale socket is taken over, mem daemon hosts one', async (t) => {
  const ws = searchWorkspace(t);
  await index(ws);
  const one = startServer(ws);
  killAfter(t, one.child);
  const s1 = await waitFor('the first server', async () => (await status(ws)) ?? false, 60_000, 200);
  const two = startServer(ws);
  killAfter(t, two.child);
  const r2 = await two.done;
  assert.equal(r2.code, 0, r2.stderr);
  assert.equal((await status(ws))?.pid, s1.pid, 'the first one still serves');
  // Killed without a chance to clean up: its socket file stays, and nobody accepts on it.
  one.child.kill('SIGKILL');
  await one.done;
  const address = socketAddress(realpathSync(ws));
  if (process.platform !== 'win32') {
    assert.equal(existsSync(address), true);
    await assert.rejects(
      new Promise((resolve, reject) => net.createConnection(address).on('connect', resolve).on('error', reject)),
    );
  }
  const three = startServer(ws);
  killAfter(t, three.child);
  const s3 = await waitFor('a server on the stale socket', async () => (await status(ws)) ?? false, 60_000, 200);
  assert.equal(s3.pid, three.child.pid);
  // mem daemon takes over from an on-demand server and hosts its own until it stops.
  const daemon = startMem(['-C', ws, 'daemon']);
  killAfter(t, daemon);
  const daemonDone = finished(daemon, 120_000);
  const s4 = await waitFor(
    'the daemon server',
    async () => {
      const s = await status(ws);
      return s?.mode === 'daemon' ? s : false;
    },
    60_000,
    200,
  );
  assert.notEqual(s4.pid, s3.pid);
  const r3 = await three.done;
  assert.equal(r3.code, 0);
  assert.match(r3.stderr, /asked to stop by another server/);
  const r = await both(ws, ['postgres']);
  assert.equal(r.served, r.cold);
  daemon.kill('SIGTERM');
  assert.equal((await daemonDone).code, 0);
  await waitFor('the daemon server to stop with it', async () => (await status(ws)) === undefined, 30_000, 200);
});

test("mem watch leaves the search server of mem daemon be: after the watch stops, the daemon's still serves", async (t) => {
  const ws = searchWorkspace(t);
  await index(ws);
  editConfig(ws, (cfg) => (cfg.daemon = { index: false }));
  const daemon = startMem(['-C', ws, 'daemon']);
  killAfter(t, daemon);
  const daemonDone = finished(daemon, 120_000);
  const hosted = await waitFor(
    'the daemon server',
    async () => {
      const s = await status(ws);
      return s?.mode === 'daemon' ? s : false;
    },
    60_000,
    200,
  );
  const watch = startMem(['-C', ws, 'watch', '--debounce', '300']);
  killAfter(t, watch);
  const watchDone = finished(watch, 120_000);
  let watchErr = '';
  watch.stderr!.on('data', (d: string) => (watchErr += d));
  await waitFor(
    'mem watch to settle on a server',
    () => /watch: (search server|the search server|another)/.test(watchErr),
    60_000,
    100,
  );
  assert.match(
    watchErr,
    new RegExp(
      `watch: the search server of mem daemon \\(pid ${hosted.pid}\\) serves this workspace; searches go to it`,
    ),
  );
  assert.equal((await status(ws))?.pid, hosted.pid, "the daemon's server still serves");
  watch.kill('SIGTERM');
  assert.equal((await watchDone).code, 0);
  assert.equal((await status(ws))?.pid, hosted.pid, 'and serves on after the watch stops');
  daemon.kill('SIGTERM');
  assert.equal((await daemonDone).code, 0);
});

test('the server stops when its workspace is removed, and a server of mem watch stops when watch is killed', async (t) => {
  const ws = searchWorkspace(t);
  await index(ws);
  // (mem watch --no-server runs none.)
  const plain = startMem(['-C', ws, 'watch', '--debounce', '300', '--no-server']);
  killAfter(t, plain);
  const plainDone = finished(plain, 120_000);
  let plainErr = '';
  plain.stderr!.on('data', (d: string) => (plainErr += d));
  await waitFor('mem watch --no-server to start', () => /no search server \(--no-server\)/.test(plainErr), 60_000, 100);
  assert.equal(await status(ws), undefined);
  plain.kill('SIGTERM');
  assert.equal((await plainDone).code, 0);
  const watch = startMem(['-C', ws, 'watch', '--debounce', '300']);
  killAfter(t, watch);
  const s = await waitFor('the watch server', async () => (await status(ws)) ?? false, 60_000, 200);
  watch.kill('SIGKILL');
  await waitFor(
    'the orphaned server to stop',
    () => {
      try {
        process.kill(s.pid, 0);
        return false;
      } catch {
        return true;
      }
    },
    30_000,
    200,
  );
  const { child, done } = startServer(ws, ['--idle-ms', '600000']);
  killAfter(t, child);
  await waitFor('the server', async () => (await status(ws)) ?? false, 60_000, 200);
  rmSync(ws, { recursive: true, force: true });
  const r = await done;
  assert.equal(r.code, 0);
  assert.match(r.stderr, /the workspace is gone/);
});

test('with embeddings configured the server embeds the query itself and fuses as the cold path does, over one kept connection; --lexical-only too', async (t) => {
  // Idle connections stay open a minute: the test sees whether the server keeps its own.
  const llm = await startOpenAIServer({ keepAliveTimeoutMs: 60_000 });
  t.after(() => llm.close());
  const ws = searchWorkspace(t);
  editConfig(ws, (cfg) => {
    cfg.embedding = { baseURL: llm.url, model: 'test-embed', dimensions: 16, batchSize: 50 };
  });
  await index(ws);
  const { child, done } = startServer(ws);
  killAfter(t, child);
  await waitFor('the server', async () => (await status(ws)) ?? false, 60_000, 200);
  const calls = llm.embeddings.requests.length;
  const r = await both(ws, ['rollback script']);
  assert.equal(r.served, r.cold);
  assert.equal(llm.embeddings.requests.length, calls + 2, 'each path embedded the query once');
  assert.equal(typeof JSON.parse(r.served).results[0].scores.vector, 'number');
  const lex = await both(ws, ['rollback script', '--lexical-only']);
  assert.equal(lex.served, lex.cold);
  assert.equal(JSON.parse(lex.served).results[0].scores.vector, null);
  assert.equal(llm.embeddings.requests.length, calls + 2, '--lexical-only embeds nothing');
  assert.equal((await status(ws))!.served, 2);
  // The cold search let its connection go; the server's next query goes over the one it kept.
  const [servedCall, coldCall] = llm.embeddings.requests.slice(calls);
  assert.equal(coldCall!.headers.connection, 'close');
  assert.equal(servedCall!.headers.connection, 'keep-alive');
  assert.equal((await mem(['-C', ws, '--json', '--now', NOW, 'search', 'deploy on Friday'])).code, 0);
  assert.equal((await status(ws))!.served, 3);
  assert.equal(llm.embeddings.requests.length, calls + 3);
  assert.equal(
    llm.embeddings.requests.at(-1)!.connection,
    servedCall!.connection,
    'served searches reuse one connection',
  );
  child.kill('SIGTERM');
  assert.equal((await done).code, 0);
});

test("the server's file list follows files made at the top of the workspace when an extra path is the workspace itself", async (t) => {
  const { FileTracker } = await import('../src/search/server/files.js');
  const { scanWorkspace } = await import('../src/search/index/scan.js');
  const ws = searchWorkspace(t);
  const extra = ['second-brain/summaries', '.'];
  const files = new FileTracker(ws, extra);
  t.after(() => files.close());
  files.refresh();
  const keys = () => files.current('cold').map((f) => f.path);
  writeFileSync(join(ws, 'top.md'), '## Note: at the top\n');
  mkdirSync(join(ws, 'newdir'));
  writeFileSync(join(ws, 'newdir', 'n.md'), '## Note: in a new folder\n');
  // The watcher's events land within moments (the 60-second rescan would be far too late).
  await waitFor(
    'the new files in the list',
    async () => {
      files.refresh();
      return keys().includes('top.md') && keys().includes('newdir/n.md');
    },
    10_000,
    50,
  );
  assert.deepEqual(
    keys(),
    scanWorkspace(ws, extra, 'cold').map((f) => f.path),
  );
});

test("the server's answer() equals runSearch() for every labelled query of the quality set (deep or not, filtered, with an overlay, a snippet past the stored text)", async (t) => {
  const { loadConfig } = await import('../src/config/load.js');
  const { runIndex } = await import('../src/search/run/update.js');
  const { runSearch } = await import('../src/search/query/search.js');
  const { answer } = await import('../src/search/server/answer.js');
  const { FileTracker } = await import('../src/search/server/files.js');
  const { TierCache } = await import('../src/search/server/tiers.js');
  const ws = join(searchWorkspace(t), '..', 'quality');
  cpSync(join(ROOT, 'test', 'fixtures', 'search', 'quality', 'workspace'), ws, { recursive: true });
  // A paragraph on one line longer than a result's stored text, the query's terms past the cut.
  const words = Array.from({ length: 420 }, (_, i) => `filler${i}`).join(' ');
  writeFileSync(
    join(ws, 'memory', 'long-notes.md'),
    `# Long notes\n\n${words} and the wombat ledger closes at midnight\n`,
  );
  const loaded = loadConfig(ws);
  await runIndex(ws, loaded);
  const files = new FileTracker(ws, loaded.config.extraPaths);
  const tiers = new TierCache(ws, files, loaded.config.search);
  t.after(() => {
    tiers.close();
    files.close();
  });
  const labelled = [
    ...(JSON.parse(readFileSync(join(ROOT, 'test', 'fixtures', 'search', 'quality', 'queries.json'), 'utf8')) as {
      q: string;
    }[]),
    { q: 'wombat ledger' },
  ];
  const variants: { k: number; deep: boolean; filters: Record<string, string> }[] = [
    { k: 6, deep: false, filters: {} },
    { k: 3, deep: true, filters: {} },
    { k: 10, deep: false, filters: { kind: 'decision' } },
    { k: 5, deep: true, filters: { since: '2026-01-01', path: 'memory/**' } },
  ];
  const compare = async (label: string) => {
    files.refresh();
    for (const { q } of labelled) {
      for (const v of variants) {
        const req = { query: q, today: '2026-11-22', lexicalOnly: true, ...v };
        const cold = await runSearch({
          workspace: ws,
          extraPaths: loaded.config.extraPaths,
          search: loaded.config.search,
          ...req,
        });
        const served = await answer({ workspace: ws, tiers, embedding: undefined }, req);
        assert.deepEqual(served, cold, `${label}: ${q} ${JSON.stringify(v)}`);
      }
    }
  };
  await compare('indexed');
  // A file edited after the index was written: both overlay it.
  const daily = join(
    ws,
    'memory',
    (await import('node:fs'))
      .readdirSync(join(ws, 'memory'))
      .filter((n) => n.endsWith('.md'))
      .sort()[0]!,
  );
  appendFileSync(
    daily,
    '\n## Decision: Keep SQLite for the CDN cache invalidation tests\n- id: DECISION-20261122-keep-sqlite-cdn\n- why: stale prices in the events\n',
  );
  const version = files.version;
  await waitFor('the file event', () => (files.refresh(), files.version !== version), 30_000, 20);
  await compare('overlay');
});

test("a client whose user configuration (or TZ, when no zone is configured) is not the server's is answered by itself, with its own settings", async (t) => {
  const ws = searchWorkspace(t);
  await index(ws);
  const { child } = startServer(ws);
  killAfter(t, child);
  await waitFor('the server', async () => (await status(ws)) ?? false, 60_000, 200);
  const other = join(tempDir(t), 'config');
  mkdirSync(join(other, 'memfold'), { recursive: true });
  writeFileSync(join(other, 'memfold', 'config.json'), JSON.stringify({ search: { k: 1 } }));
  const search = async (env: Record<string, string>) => {
    const r = await mem(['-C', ws, '--json', 'search', 'postgres'], { env });
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout).results.length as number;
  };
  const counts = async () => {
    const s = (await status(ws))!;
    return { served: s.served, indexed: s.indexed, cold: s.cold };
  };
  let before = await counts();
  assert.equal(await search({ XDG_CONFIG_HOME: other }), 1, "k from the client's own user configuration");
  const idx = await mem(['-C', ws, '--json', 'index'], { env: { XDG_CONFIG_HOME: other } });
  assert.equal(idx.code, 0, idx.stderr);
  let now = await counts();
  assert.deepEqual([now.served - before.served, now.indexed - before.indexed], [0, 0], 'neither served');
  // One decline each: a declined search does not ask again once it has read its configuration.
  assert.equal(now.cold - before.cold, 2);
  // The workspace names its zone: TZ changes nothing, the search is served.
  before = now;
  assert.ok((await search({ TZ: 'Pacific/Auckland' })) > 1);
  now = await counts();
  assert.equal(now.served - before.served, 1);
  // Without a configured zone, "today" comes from TZ: another TZ is answered by the client.
  editConfig(ws, (cfg) => delete cfg.timezone);
  before = now;
  assert.ok((await search({ TZ: 'Pacific/Auckland' })) > 1);
  assert.ok((await search({})) > 1);
  now = await counts();
  assert.deepEqual(
    [now.served - before.served, now.cold - before.cold > 0],
    [1, true],
    'the other TZ declined, the same one served',
  );
});

test('a client of another build is answered "cold", and an on-demand server of the old build makes way', async (t) => {
  const ws = searchWorkspace(t);
  await index(ws);
  const { child, done } = startServer(ws);
  killAfter(t, child);
  await waitFor('the server', async () => (await status(ws)) ?? false, 60_000, 200);
  const real = realpathSync(ws);
  const reply = await exchange(
    socketAddress(real),
    {
      v: PROTOCOL,
      build: 'another-build',
      op: 'search',
      workspace: real,
      env: { userConfig: '', tz: '' },
      query: 'postgres',
      k: 6,
      deep: false,
      filters: {},
      today: '2026-11-22',
      lexicalOnly: false,
    },
    10_000,
  );
  assert.deepEqual(reply, { v: PROTOCOL, ok: false, cold: 'server of another build' });
  const r = await done;
  assert.equal(r.code, 0);
  assert.match(r.stderr, /a client of another build asked/);
  // And a bad request line gets a "cold" reply, not a crash.
  const again = startServer(ws);
  killAfter(t, again.child);
  await waitFor('the server', async () => (await status(ws)) ?? false, 60_000, 200);
  const raw = await new Promise<string>((resolve, reject) => {
    let got = '';
    const sock = net.createConnection(socketAddress(real), () => sock.write('{not json\n'));
    sock
      .setEncoding('utf8')
      .on('data', (d: string) => (got += d))
      .on('end', () => resolve(got))
      .on('error', reject);
  });
  assert.deepEqual(JSON.parse(raw), { v: PROTOCOL, ok: false, cold: 'bad request' });
  assert.ok(await status(ws), 'still serving');
  again.child.kill('SIGTERM');
  assert.equal((await again.done).code, 0);
});

test('a server that cannot start leaves a marker beside its socket, and searches start no other for a while', async (t) => {
  const ws = searchWorkspace(t);
  await index(ws);
  const marker = failedMarker(socketAddress(realpathSync(ws)));
  t.after(() => rmSync(marker, { force: true }));
  const env = { MEM_SEARCH_SERVER: 'spawn', MEM_SEARCH_SERVER_SIMULATE_ERROR: 'test', MEM_TEST_HOOKS: '1' };
  const first = await both(ws, ['postgres'], env);
  assert.equal(first.served, first.cold);
  await waitFor('the failure marker', () => existsSync(marker), 60_000, 100);
  assert.match(readFileSync(marker, 'utf8'), /simulated start-up failure \(test\)/);
  // Mark it as the first attempt's, then search again: no server is started (it would rewrite it).
  writeFileSync(marker, 'first attempt\n');
  const again = await both(ws, ['postgres'], env);
  assert.equal(again.served, again.cold);
  await new Promise((r) => setTimeout(r, 3000));
  assert.equal(readFileSync(marker, 'utf8'), 'first attempt\n');
  assert.equal(await status(ws), undefined);
});
