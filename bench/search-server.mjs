#!/usr/bin/env node
// search-server.mjs — benchmark of `mem search` answered by the resident search server
// (src/search/server/), on workspaces from bench/gen-corpus.mjs.
//
// Usage (from the project root, after `npm run build`):
//   node bench/search-server.mjs [--files 1000] [--runs 3] [--workdir DIR] [--keep]
//   node bench/search-server.mjs --files 10000 --runs 3
//
// In one process tree, so every figure comes from the same machine state:
// 1. generates the corpus (deterministic seed; reused when --workdir already holds it) and indexes it;
// 2. baseline: `node -e 0`, run right before every measured run of each phase (the machine's load
//    shifts: a baseline taken once drifts); each phase's times are printed as ratios to the median
//    `node -e 0` of its own interleaved samples;
// 3. cold `mem search` (MEM_SEARCH_SERVER=off): 10 queries (4 Chinese) × --runs, whole-process wall time;
// 4. starts the server (node dist/cli/search-server.js, as a search would on demand), waits for it,
//    then the same queries through a fresh `mem search --json` each: p50 and p95 (every answer is
//    checked to come from the server and to equal the cold answer), and the client module alone
//    (node + src/search/server/client.js + one exchange: the floor of any served search);
// 5. `mem index` after appending one entry to one daily file, alternately cold (MEM_SEARCH_SERVER=off)
//    and run by the server (checked by its `indexed` count), max(20, 7 × --runs) times each;
// 6. the server's memory: RSS after the queries and its peak (VmHWM, Linux), from /proc or its status.
// Results: a table on stdout and bench/out/search-server-latest.json.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  arg,
  corpusWorkspace,
  flag,
  median,
  oneEditIndexRuns,
  p95,
  run as runProcess,
  SEARCH_QUERIES,
} from './lib.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MEM = path.join(ROOT, 'bin', 'mem.cjs');
const SERVER = path.join(ROOT, 'dist', 'cli', 'search-server.js');
const OUT_DIR = path.join(ROOT, 'bench', 'out');
const files = parseInt(arg('files', process.env.BENCH_SEARCH_FILES ?? '1000'), 10);
const runs = Math.max(2, parseInt(arg('runs', '3'), 10));
const workdir = arg('workdir', null) ?? fs.mkdtempSync(path.join(os.tmpdir(), 'memfold-bench-server-'));
const QUERIES = SEARCH_QUERIES;

const run = (cmd, argv, env = {}) => runProcess(cmd, argv, { env });

console.error(`corpus: ${files} files in ${workdir}`);
const ws = corpusWorkspace(workdir, files);
const idx = run(process.execPath, [MEM, '-C', ws, 'index'], { MEM_SEARCH_SERVER: 'off' });
if (idx.code !== 0) throw new Error(idx.stderr);
const real = fs.realpathSync(ws);
const proto = await import(path.join(ROOT, 'dist', 'search', 'server', 'protocol.js'));
const address = await import(path.join(ROOT, 'dist', 'search', 'server', 'address.js'));
const { exchange } = proto;
const status = async () => {
  const r = await exchange(
    address.socketAddress(real),
    { v: proto.PROTOCOL, build: '', op: 'status', workspace: real },
    10_000,
  );
  return r && r !== 'absent' && r.ok ? r.status : undefined;
};
if (await status()) throw new Error('a search server already runs for this workspace; stop it first');

const node0 = median(Array.from({ length: 20 }, () => run(process.execPath, ['-e', '0']).ms));
const rows = [];
const row = (what, ms, extra = '', base = node0) => {
  rows.push({
    what,
    ms: Math.round(ms * 10) / 10,
    node0: Math.round(base * 10) / 10,
    ratio: Math.round((ms / base) * 100) / 100,
    extra,
  });
  console.log(
    `${what.padEnd(48)} ${ms.toFixed(0).padStart(7)} ms  ${`${(ms / base).toFixed(2)}×`.padStart(7)}  (node -e 0: ${base.toFixed(0)} ms)  ${extra}`,
  );
};
const base = [];
const node0Now = () => base.push(run(process.execPath, ['-e', '0']).ms);
console.log(
  `${files} files; node -e 0 before the runs (median of 20): ${node0.toFixed(1)} ms; each phase below is compared with its own interleaved node -e 0\n`,
);

const search = (q, env) => run(process.execPath, [MEM, '-C', ws, '--json', 'search', q], env);
const cold = [];
const coldAnswers = new Map();
base.length = 0;
for (let i = 0; i < runs; i++) {
  for (const q of QUERIES) {
    node0Now();
    const r = search(q, { MEM_SEARCH_SERVER: 'off' });
    if (r.code !== 0) throw new Error(r.stderr);
    coldAnswers.set(q, r.stdout);
    cold.push(r.ms);
  }
}
const coldBase = median(base);
row(`mem search, cold (no server), p50 (${cold.length} runs)`, median(cold), '', coldBase);
row('mem search, cold (no server), p95', p95(cold), '', coldBase);

// The server, started as a search would start it on demand.
const t0 = performance.now();
const server = spawn(process.execPath, [SERVER, '--workspace', real, '--mode', 'on-demand', '--idle-ms', '600000'], {
  stdio: ['ignore', 'ignore', 'pipe'],
});
let serverErr = '';
server.stderr.setEncoding('utf8').on('data', (d) => (serverErr += d));
let st;
while (!(st = await status())) {
  if (server.exitCode !== null) throw new Error(`the server exited: ${serverErr}`);
  await new Promise((r) => setTimeout(r, 20));
}
const readyMs = performance.now() - t0;
const served = [];
const floor = [];
const floorScript = path.join(workdir, 'ask.mjs');
fs.writeFileSync(
  floorScript,
  `import { askServer } from ${JSON.stringify(path.join(ROOT, 'dist', 'search', 'server', 'client.js'))};
const r = await askServer(process.argv[2], { query: process.argv[3], k: 6, deep: false, filters: {}, today: '2026-06-30', lexicalOnly: false });
if (!r) process.exit(3);\n`,
);
let mismatches = 0;
const floorBase = [];
try {
  base.length = 0;
  for (let i = 0; i < runs; i++) {
    for (const q of QUERIES) {
      node0Now();
      const r = search(q, { MEM_SEARCH_SERVER: 'no-spawn' });
      if (r.code !== 0) throw new Error(r.stderr);
      if (r.stdout !== coldAnswers.get(q)) mismatches++;
      served.push(r.ms);
      floorBase.push(run(process.execPath, ['-e', '0']).ms);
      const f = run(process.execPath, [floorScript, real, q], { MEM_SEARCH_SERVER: 'no-spawn', MEM_DEBUG: '1' });
      if (f.code !== 0) throw new Error(`the client alone got no answer for ${q}: ${f.stderr}`);
      floor.push(f.ms);
    }
  }
  const after = await status();
  if (after.served < served.length) throw new Error(`only ${after.served} of ${served.length} searches were served`);
  row(
    `mem search, server running, p50 (${served.length} runs)`,
    median(served),
    mismatches ? `${mismatches} answers differ from cold!` : 'every answer equal to cold',
  );
  row('mem search, server running, p95', p95(served));
  row('client module alone (node + client.js), p50', median(floor));
  row('client module alone (node + client.js), p95', p95(floor));
  let hwm = null;
  try {
    hwm = Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${server.pid}/status`, 'utf8'))[1]) * 1024;
  } catch {
    // not Linux
  }
  const mb = (b) => `${(b / 1048576).toFixed(0)} MB`;
  row('  of which inside the server (answer), p50', after.answerMs.p50);
  row('  of which inside the server (answer), p95', after.answerMs.p95);
  // `mem index` after editing one file: cold (MEM_SEARCH_SERVER=off) and run by the server, alternately.
  const indexCold = [];
  const indexServed = [];
  base.length = 0;
  const before = (await status()).indexed;
  oneEditIndexRuns(ws, Math.max(20, runs * 7) * 2, (i) => {
    if (i % 2 === 0) node0Now();
    const r = run(process.execPath, [MEM, '-C', ws, '--json', 'index'], {
      MEM_SEARCH_SERVER: i % 2 ? 'off' : 'no-spawn',
    });
    (i % 2 ? indexCold : indexServed).push(r.ms);
    return r;
  });
  const indexed = (await status()).indexed - before;
  if (indexed !== indexServed.length)
    throw new Error(`only ${indexed} of ${indexServed.length} index runs were run by the server`);
  row(`mem index after one edit, cold, p50 (${indexCold.length} runs)`, median(indexCold), '', median(base));
  row('mem index after one edit, cold, p95', p95(indexCold), '', median(base));
  row(
    `mem index after one edit, server running, p50 (${indexServed.length})`,
    median(indexServed),
    'run by the server',
    median(base),
  );
  row('mem index after one edit, server running, p95', p95(indexServed), '', median(base));
  row(
    'server start to first answer possible',
    readyMs,
    `server RSS ${mb(after.rssBytes)} after the queries${hwm ? `, peak ${mb(hwm)}` : ''}, heap ${mb(after.heapUsedBytes)}`,
  );
  fs.mkdirSync(OUT_DIR, { recursive: true });
  fs.writeFileSync(
    path.join(OUT_DIR, 'search-server-latest.json'),
    JSON.stringify(
      {
        files,
        runs,
        node0,
        loadavg: os.loadavg(),
        rows,
        serverRssBytes: after.rssBytes,
        serverPeakRssBytes: hwm,
        mismatches,
        at: new Date().toISOString(),
      },
      null,
      2,
    ),
  );
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => server.once('close', r));
  if (!flag('keep') && !arg('workdir', null)) fs.rmSync(workdir, { recursive: true, force: true });
}
