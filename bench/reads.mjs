#!/usr/bin/env node
// reads.mjs — benchmark of the read commands a session start and an agent run (issue 28):
// `mem context`, `mem get <id>`, `mem trace <id>`, `mem status`, `mem --help`, and the MCP reads
// inside one running `mem mcp`, on workspaces from bench/gen-corpus.mjs.
//
// Usage (from the project root; `npm run bench:reads` builds first):
//   node bench/reads.mjs [--files 1000] [--runs 10] [--workdir DIR]
//   node bench/reads.mjs --files 10000 --runs 10 --workdir /tmp/bench-10k   # reuses the corpus there
//
// In one process tree, so every figure comes from the same machine state:
// 1. generates the corpus (deterministic; reused when --workdir already holds it) and indexes it
//    (no resident server: MEM_SEARCH_SERVER=off throughout); then `mem index` on the full CLI
//    (MEM_LEAN_CLI=0), which stores what `mem status` shows of the entries as every job that writes
//    Markdown does (the lean `mem index` does not), so status is timed as the jobs leave a workspace;
// 2. `mem context` runs from `<workdir>/<project>`, a folder named after a project scope of the corpus,
//    and its pack must hold items (the count is printed);
// 3. every command runs --runs times, each run right after a `node -e 0` (the machine's load drifts):
//    p50 and p95 of the whole process, as ratios to the median of those interleaved baselines;
// 4. peak RSS of `mem context` (/usr/bin/time -f %M, when present);
// 5. one `mem mcp` over stdio: memory_context, memory_get and memory_search, --runs × 3 calls each, p95 ms;
// 6. `mem context` answered by a resident search server started for the workspace (cli/served-context.ts),
//    checked byte for byte against the cold pack, --runs times, each after a `node -e 0`.
// Each figure is printed beside its target. Results: bench/out/reads-latest.json.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { arg, corpusWorkspace, median, p95, run as runProcess, SEARCH_QUERIES } from './lib.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MEM = path.join(ROOT, 'bin', 'mem.cjs');
const OUT_DIR = path.join(ROOT, 'bench', 'out');
const files = parseInt(arg('files', '1000'), 10);
const runs = Math.max(3, parseInt(arg('runs', '10'), 10));
const workdir = arg('workdir', null) ?? fs.mkdtempSync(path.join(os.tmpdir(), 'memfold-bench-reads-'));
const big = files >= 10_000;

const OFF = { MEM_SEARCH_SERVER: 'off' };
const run = (argv, { cwd, rss } = {}) => {
  const r = runProcess(process.execPath, [MEM, ...argv], { env: OFF, rss, cwd });
  if (r.code !== 0) throw new Error(`mem ${argv.join(' ')}: exit ${r.code}: ${r.stderr}`);
  return r;
};

console.error(`corpus: ${files} files in ${workdir}`);
const ws = corpusWorkspace(workdir, files);
run(['-C', ws, 'index']);
// The state the jobs leave: status's summary stored (entries/governance-refresh.ts).
{
  const r = runProcess(process.execPath, [MEM, '-C', ws, 'index'], { env: { ...OFF, MEM_LEAN_CLI: '0' } });
  if (r.code !== 0) throw new Error(`MEM_LEAN_CLI=0 mem index: exit ${r.code}: ${r.stderr}`);
}

// A project scope of the corpus; an entry id from the pack, and one whose entry supersedes another (for trace).
const daily = fs
  .readdirSync(path.join(ws, 'memory'))
  .filter((f) => /^\d{4}-\d{2}-\d{2}\.md$/.test(f))
  .sort();
// The newest daily file naming a project scope (today's holds the benchmark's global note).
const project = daily
  .slice()
  .reverse()
  .map((f) => /- scope: project:([\w-]+)/.exec(fs.readFileSync(path.join(ws, 'memory', f), 'utf8'))?.[1])
  .find(Boolean);
if (!project) throw new Error('the corpus has no scoped entry');
const cwd = path.join(workdir, project);
fs.mkdirSync(cwd, { recursive: true });
const ctxArgs = ['-C', ws, 'context'];

const pack = JSON.parse(run([...ctxArgs, '--json'], { cwd }).stdout);
if (!pack.items?.length) throw new Error(`mem context from ${cwd} packed no items`);
// A session start has read a pack: from now on every refresh keeps the packs ready (pack/pack-cache.ts).
run(['-C', ws, 'index']);
const id = pack.items.find((it) => it.id)?.id;
if (!id) throw new Error('the pack cites no entry id');
let traced = id;
for (const f of daily.slice().reverse().slice(0, 30)) {
  const text = fs.readFileSync(path.join(ws, 'memory', f), 'utf8');
  const m = [...text.matchAll(/- id: (\S+)\n(?:- [^\n]*\n|  [^\n]*\n)*?- supersedes: \S/g)].map((x) => x[1]);
  const ok = m.find((c) => runProcess(process.execPath, [MEM, '-C', ws, 'get', c], { env: OFF }).code === 0);
  if (ok) {
    traced = ok;
    break;
  }
}
console.log(
  `corpus ${files} files; context from folder "${project}" (scope ${pack.scope}): ${pack.items.length} items, ${pack.tokens} tokens; get ${id}; trace ${traced}`,
);

const COMMANDS = {
  context: { argv: ctxArgs, cwd },
  get: { argv: ['-C', ws, 'get', id] },
  trace: { argv: ['-C', ws, 'trace', traced] },
  status: { argv: ['-C', ws, 'status'] },
  help: { argv: ['--help'] },
};
const times = Object.fromEntries(Object.keys(COMMANDS).map((k) => [k, []]));
const base = [];
for (let i = 0; i < runs; i++) {
  for (const [name, c] of Object.entries(COMMANDS)) {
    base.push(runProcess(process.execPath, ['-e', '0']).ms);
    const r = runProcess(process.execPath, [MEM, ...c.argv], { env: OFF, cwd: c.cwd });
    // `mem status` exits 5 when it finds problems: a generated corpus may have some.
    if (r.code !== 0 && !(name === 'status' && r.code === 5))
      throw new Error(`mem ${c.argv.join(' ')}: exit ${r.code}: ${r.stderr}`);
    times[name].push(r.ms);
  }
}
const node0 = median(base);
// Once, with the stored summary set aside: status after a hand edit, or with only `mem index` since the last job.
const summaryFile = path.join(ws, '.mem', 'entries', 'governance.json');
let staleMs = null;
if (fs.existsSync(summaryFile)) {
  fs.renameSync(summaryFile, `${summaryFile}.bench`);
  try {
    staleMs = runProcess(process.execPath, [MEM, ...COMMANDS.status.argv], { env: OFF }).ms;
  } finally {
    fs.renameSync(`${summaryFile}.bench`, summaryFile);
  }
}
const rss = Array.from({ length: 3 }, () => run(ctxArgs, { cwd, rss: true }).rssMB);

// `mem context` answered by a resident server (cli/served-context.ts), as with `mem watch`, the daemon
// or a server a search started: its pack must be the cold one, byte for byte.
const served = await servedContext();

async function servedContext() {
  const server = spawn(
    process.execPath,
    [path.join(ROOT, 'dist', 'cli', 'search-server.js'), '--workspace', fs.realpathSync(ws), '--mode', 'on-demand'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let said = '';
  server.stderr.on('data', (d) => (said += d));
  try {
    for (let i = 0; i < 600 && !/search server for/.test(said); i++) await new Promise((r) => setTimeout(r, 100));
    if (!/search server for/.test(said)) throw new Error(`the search server did not start: ${said}`);
    const SERVED = { MEM_SEARCH_SERVER: 'no-spawn' };
    const cold = runProcess(process.execPath, [MEM, ...ctxArgs], { env: OFF, cwd }).stdout;
    const ms = [];
    const baseline = [];
    for (let i = 0; i < runs; i++) {
      baseline.push(runProcess(process.execPath, ['-e', '0']).ms);
      const r = runProcess(process.execPath, [MEM, ...ctxArgs], { env: SERVED, cwd });
      if (r.code !== 0 || r.stdout !== cold)
        throw new Error(`served mem context differs from the cold one: ${r.stderr}`);
      ms.push(r.ms);
    }
    return { ms, node0: median(baseline) };
  } finally {
    server.kill();
  }
}

const results = [];
const mark = (ok) => (ok === undefined ? '' : ok ? 'met' : 'NOT MET');
const row = (what, value, unit, target, ok) => {
  results.push({ what, value: Math.round(value * 100) / 100, unit, target, met: ok });
  console.log(
    `${what.padEnd(28)} ${value.toFixed(2).padStart(8)} ${unit.padEnd(3)} target ${target.padEnd(22)} ${mark(ok)}`,
  );
};
console.log(`\nnode -e 0: ${node0.toFixed(1)} ms (median of ${base.length}, interleaved); ${runs} runs each\n`);
const ratio = (xs, f) => f(xs) / node0;
const targets = {
  context: [
    ['p50', median, big ? 2 : undefined],
    ['p95', p95, big ? 3 : undefined],
  ],
  get: [
    ['p50', median, 1.5],
    ['p95', p95],
  ],
  trace: [
    ['p50', median],
    ['p95', p95],
  ],
  status: [
    ['p50', median, 2.5],
    ['p95', p95],
  ],
  help: [
    ['p50', median, 2.5],
    ['p95', p95],
  ],
};
for (const [name, list] of Object.entries(targets)) {
  for (const [label, f, t] of list) {
    const r = ratio(times[name], f);
    const what = `mem ${name === 'help' ? '--help' : name} ${label}`;
    row(
      what,
      r,
      '×',
      t === undefined ? (name === 'context' ? '(≤ 2×/3× at 10,000)' : '-') : `≤ ${t}×`,
      t === undefined ? undefined : r <= t,
    );
  }
}
if (staleMs !== null) row('mem status, summary stale', staleMs / node0, '×', '- (one run)', undefined);
row('mem context, served p50', median(served.ms) / served.node0, '×', '(resident server)', undefined);
row('mem context, served p95', p95(served.ms) / served.node0, '×', '(resident server)', undefined);
const peak = rss.every((x) => x !== null) ? Math.max(...rss) : null;
if (peak !== null) row('mem context peak RSS', peak, 'MB', '≤ 150 MB', peak <= 150);

// MCP: one process, JSON-RPC over stdio.
const mcp = spawn(process.execPath, [MEM, '-C', ws, 'mcp'], {
  cwd,
  env: { ...process.env, ...OFF },
  stdio: ['pipe', 'pipe', 'inherit'],
});
let buf = '';
const waiting = new Map();
mcp.stdout.on('data', (d) => {
  buf += d;
  let nl;
  while ((nl = buf.indexOf('\n')) >= 0) {
    const msg = JSON.parse(buf.slice(0, nl));
    buf = buf.slice(nl + 1);
    waiting.get(msg.id)?.(msg);
  }
});
let next = 1;
const call = (method, params) =>
  new Promise((resolve) => {
    const n = next++;
    waiting.set(n, resolve);
    mcp.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: n, method, params }) + '\n');
  });
await call('initialize', {
  protocolVersion: '2025-06-18',
  capabilities: {},
  clientInfo: { name: 'bench', version: '1' },
});
mcp.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
const tool = async (name, args) => {
  const t = performance.now();
  const r = await call('tools/call', { name, arguments: args });
  const ms = performance.now() - t;
  if (r.error || r.result?.isError) throw new Error(`${name}: ${JSON.stringify(r.error ?? r.result.content)}`);
  return { ms, value: r.result.structuredContent };
};
const mcpTimes = { memory_context: [], memory_get: [], memory_search: [] };
const first = {};
for (let i = 0; i < runs * 3; i++) {
  for (const [name, args] of [
    ['memory_context', {}],
    ['memory_get', { id }],
    ['memory_search', { query: SEARCH_QUERIES[i % SEARCH_QUERIES.length] }],
  ]) {
    const r = await tool(name, args);
    if (i === 0) first[name] = r.ms;
    else mcpTimes[name].push(r.ms);
    if (name === 'memory_context' && !r.value.items?.length) throw new Error('memory_context packed no items');
  }
}
mcp.stdin.end();
console.log(
  `\nmcp (first calls: ${Object.entries(first)
    .map(([k, v]) => `${k} ${v.toFixed(0)} ms`)
    .join(', ')})`,
);
for (const [name, xs] of Object.entries(mcpTimes)) {
  const v = p95(xs);
  row(`${name} p95`, v, 'ms', big ? '< 150 ms' : '(< 150 ms at 10,000)', big ? v < 150 : undefined);
}

fs.mkdirSync(OUT_DIR, { recursive: true });
fs.writeFileSync(
  path.join(OUT_DIR, 'reads-latest.json'),
  JSON.stringify(
    {
      files,
      runs,
      node0,
      items: pack.items.length,
      results,
      ms: Object.fromEntries(Object.entries(times).map(([k, xs]) => [k, { p50: median(xs), p95: p95(xs) }])),
    },
    null,
    2,
  ),
);
