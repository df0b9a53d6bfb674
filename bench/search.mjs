#!/usr/bin/env node
// search.mjs — benchmark of `mem index` / `mem search` on workspaces from bench/gen-corpus.mjs.
//
// Usage (from the project root, after `npm run build`; `npm run bench:search` does both):
//   node bench/search.mjs [--files 1000] [--runs 2] [--embed-runs N] [--workdir DIR] [--keep]
//   BENCH_SEARCH_FILES=10000 npm run bench:search      # the 10,000-file workspace (slower)
//
// In one process tree, so every figure comes from the same machine state:
// 1. generates the corpus (deterministic seed) and a mem.config.json with extraPaths = summaries;
// 2. baseline: `node -e 0`, median of 20 — every time below is also printed as a ratio to it;
// 3. `mem index --rebuild` (lexical): seconds and peak RSS (/usr/bin/time when present);
// 4. cold `mem search` (no server: MEM_SEARCH_SERVER=off): 10 queries (4 Chinese) × --runs,
//    whole-process wall time, median and p95; beside it the same queries through the search module
//    alone (no CLI start-up: shows what the CLI's own imports cost) and `rg -i` as the scan lower
//    bound (when installed). `node -e 0` also runs between the searches: on a shared machine the
//    load drifts, so these rows also give their ratio to that interleaved baseline;
// 5. `mem index` after appending one entry to one daily file (no server), max(10, 5 × --runs) times;
// 6. hybrid against lexical, cold: bench/embedder.mjs answers embeddings at once on 127.0.0.1 (256
//    dimensions), the corpus is embedded, then each query runs with embeddings and with
//    --lexical-only on the same index, interleaved with `node -e 0`; the ratio of the medians is
//    printed beside its target (≤ 1.3×, issue 32), so it shows what the client costs, not a model.
//    The config is restored after; with --embed-runs 0 it is skipped;
// 7. retrieval quality on the labelled set test/fixtures/search/quality (recall@1, recall@5, MRR),
//    lexical, in-process on a copy of its workspace.
// Results: a table on stdout and bench/out/search-latest.json.
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
  startEmbedder,
} from './lib.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MEM = path.join(ROOT, 'bin', 'mem.cjs');
const OUT_DIR = path.join(ROOT, 'bench', 'out');
const files = parseInt(arg('files', process.env.BENCH_SEARCH_FILES ?? '1000'), 10);
const runs = Math.max(2, parseInt(arg('runs', process.env.BENCH_SEARCH_RUNS ?? '2'), 10));
const keep = flag('keep');
const workdir = arg('workdir', null) ?? fs.mkdtempSync(path.join(os.tmpdir(), 'memfold-bench-search-'));
const QUERIES = SEARCH_QUERIES;
// Cold figures: no resident search server is asked or started (MEM_SEARCH_SERVER=off).
const run = (cmd, argv, { env, rss } = {}) => runProcess(cmd, argv, { env: { MEM_SEARCH_SERVER: 'off', ...env }, rss });

console.error(`corpus: ${files} files in ${workdir}`);
const ws = corpusWorkspace(workdir, files);

const node0 = median(Array.from({ length: 20 }, () => run(process.execPath, ['-e', '0']).ms));
const ratio = (ms) => `${(ms / node0).toFixed(2)}×`;
const rows = [];
const row = (what, ms, extra = '', base = node0) => {
  if (base !== node0) extra = `${(ms / base).toFixed(2)}× the interleaved node -e 0 ${extra}`.trim();
  rows.push({
    what,
    ms: Math.round(ms),
    ratio: ms / node0,
    ...(base !== node0 ? { ratioInterleaved: ms / base } : {}),
    extra,
  });
  console.log(`${what.padEnd(46)} ${String(Math.round(ms)).padStart(7)} ms  ${ratio(ms).padStart(7)}  ${extra}`);
};
console.log(`node -e 0 (median of 20): ${node0.toFixed(1)} ms\n`);

const rebuild = run(process.execPath, [MEM, '-C', ws, '--json', 'index', '--rebuild'], { rss: true });
if (rebuild.code !== 0) throw new Error(rebuild.stderr);
const idx = JSON.parse(rebuild.stdout);
const chunks = idx.tiers.warm.chunks + idx.tiers.cold.chunks;
const indexBytes = fs
  .readdirSync(path.join(ws, '.mem', 'index'))
  .reduce((n, f) => n + fs.statSync(path.join(ws, '.mem', 'index', f)).size, 0);
row(
  'mem index --rebuild (lexical)',
  rebuild.ms,
  `${chunks} chunks, ${(indexBytes / 1048576).toFixed(1)} MB on disk, peak RSS ${rebuild.rssMB?.toFixed(0) ?? '?'} MB`,
);

const cli = [];
const core = [];
const rg = [];
const coreScript = path.join(workdir, 'core.mjs');
fs.writeFileSync(
  coreScript,
  `import { runSearch } from ${JSON.stringify(path.join(ROOT, 'dist', 'search', 'query', 'search.js'))};
const r = await runSearch({ workspace: process.argv[2], query: process.argv[3], k: 6, deep: false, filters: {}, today: '2026-06-30', extraPaths: ['second-brain/summaries'], search: { chunkTokens: 400, overlapTokens: 80 } });
process.stdout.write(String(r.response.results.length));\n`,
);
const hasRg = run('rg', ['--version']).code === 0;
let empty = 0;
const base = [];
for (let i = 0; i < runs; i++) {
  for (const q of QUERIES) {
    const r = run(process.execPath, [MEM, '-C', ws, '--json', 'search', q]);
    if (r.code !== 0) throw new Error(r.stderr);
    if (!JSON.parse(r.stdout).results.length) empty++;
    cli.push(r.ms);
    // The machine's load drifts (shared cores): a baseline taken between the searches too.
    base.push(run(process.execPath, ['-e', '0']).ms);
    core.push(run(process.execPath, [coreScript, ws, q]).ms);
    if (hasRg) rg.push(run('rg', ['-i', '-c', '-F', q.split(' ')[0], ws]).ms);
  }
}
const node0i = median(base);
console.log(`node -e 0 interleaved with the searches (median of ${base.length}): ${node0i.toFixed(1)} ms`);
row(`mem search, cold, p50 (${cli.length} runs)`, median(cli), '', node0i);
row('mem search, cold, p95', p95(cli), empty ? `${empty / runs} of ${QUERIES.length} queries had no hit` : '', node0i);
row('search module alone (no CLI imports), p50', median(core), '', node0i);
row('search module alone (no CLI imports), p95', p95(core), '', node0i);
if (hasRg) row('rg -i (scan lower bound), p50', median(rg));
else console.log('rg: not installed (apt-get install ripgrep) — skipped');

const incr = [];
const incrBase = [];
oneEditIndexRuns(ws, Math.max(10, runs * 5), () => {
  incrBase.push(run(process.execPath, ['-e', '0']).ms);
  const r = run(process.execPath, [MEM, '-C', ws, '--json', 'index']);
  incr.push(r.ms);
  return r;
});
row(`mem index after editing one file, p50 (${incr.length} runs)`, median(incr), '', median(incrBase));
row('mem index after editing one file, p95', p95(incr), '', median(incrBase));

let hybrid = null;
const embedRuns = parseInt(arg('embed-runs', String(runs)), 10);
if (embedRuns > 0) hybrid = await measureHybrid(embedRuns);

/** Section 6: cold hybrid `mem search` against cold lexical on the same index, with an instant embedder. */
async function measureHybrid(n) {
  const cfgFile = path.join(ws, 'mem.config.json');
  const original = fs.readFileSync(cfgFile, 'utf8');
  const embedder = await startEmbedder(256);
  try {
    fs.writeFileSync(
      cfgFile,
      JSON.stringify(
        {
          ...JSON.parse(original),
          embedding: { baseURL: embedder.url, model: 'bench-embed', dimensions: 256, batchSize: 256 },
        },
        null,
        2,
      ),
    );
    const ix = run(process.execPath, [MEM, '-C', ws, '--json', 'index']);
    if (ix.code !== 0) throw new Error(ix.stderr);
    const emb = JSON.parse(ix.stdout).embeddings;
    if (emb?.failed) throw new Error(`embedding the corpus failed: ${emb.failed}`);
    const lex = [],
      hyb = [],
      base = [];
    for (let i = 0; i < n; i++) {
      for (const q of QUERIES) {
        base.push(run(process.execPath, ['-e', '0']).ms);
        const l = run(process.execPath, [MEM, '-C', ws, '--json', 'search', q, '--lexical-only']);
        const h = run(process.execPath, [MEM, '-C', ws, '--json', 'search', q]);
        if (l.code !== 0 || h.code !== 0) throw new Error(l.stderr + h.stderr);
        if (h.stderr.trim()) throw new Error(`hybrid search warned: ${h.stderr}`);
        lex.push(l.ms);
        hyb.push(h.ms);
      }
    }
    const b = median(base);
    console.log(
      `\nhybrid (${emb.computed + emb.cached} chunks embedded, 256 dimensions, instant embedder on 127.0.0.1); node -e 0 interleaved: ${b.toFixed(1)} ms`,
    );
    row(`mem search --lexical-only, cold, p50 (${lex.length})`, median(lex), '', b);
    row(`mem search with embeddings, cold, p50 (${hyb.length})`, median(hyb), '', b);
    const ratio = median(hyb) / median(lex);
    console.log(`hybrid / lexical, cold: ${ratio.toFixed(2)}×  (target ≤ 1.30×)`);
    return {
      chunks: emb.computed + emb.cached,
      dims: 256,
      lexicalMs: median(lex),
      hybridMs: median(hyb),
      node0: b,
      ratio,
      target: 1.3,
    };
  } finally {
    fs.writeFileSync(cfgFile, original);
    embedder.stop();
  }
}

let quality = null;
const QUALITY = path.join(ROOT, 'test', 'fixtures', 'search', 'quality');
if (fs.existsSync(path.join(QUALITY, 'queries.json'))) {
  quality = await measureQuality();
  console.log(
    `\nquality (${quality.queries} labelled queries, ${quality.zh} Chinese, lexical): recall@1 ${quality.recall1.toFixed(3)}  recall@5 ${quality.recall5.toFixed(3)}  MRR ${quality.mrr.toFixed(3)}`,
  );
  for (const m of quality.misses) console.log(`  miss: ${m}`);
}

/** Indexes a copy of the quality workspace and ranks each labelled query in-process. */
async function measureQuality() {
  const { runSearch } = await import(path.join(ROOT, 'dist', 'search', 'query', 'search.js'));
  const { runIndex } = await import(path.join(ROOT, 'dist', 'search', 'run', 'update.js'));
  const { loadConfig } = await import(path.join(ROOT, 'dist', 'config', 'load.js'));
  const qws = path.join(workdir, 'quality');
  fs.cpSync(path.join(QUALITY, 'workspace'), qws, { recursive: true });
  const loaded = loadConfig(qws);
  await runIndex(qws, loaded);
  const labelled = JSON.parse(fs.readFileSync(path.join(QUALITY, 'queries.json'), 'utf8'));
  let r1 = 0,
    r5 = 0,
    rr = 0,
    zh = 0;
  const misses = [];
  for (const { q, id } of labelled) {
    if (/\p{Script=Han}/u.test(q)) zh++;
    const { response } = await runSearch({
      workspace: qws,
      query: q,
      k: 10,
      deep: true,
      filters: {},
      today: '2026-11-22',
      extraPaths: loaded.config.extraPaths,
      search: loaded.config.search,
    });
    const rank = response.results.findIndex((r) => r.id === id) + 1;
    if (rank === 1) r1++;
    if (rank >= 1 && rank <= 5) r5++;
    if (rank >= 1) rr += 1 / rank;
    if (rank === 0 || rank > 5) misses.push(`${q} → ${id} (rank ${rank || '>10'})`);
  }
  const n = labelled.length;
  return { queries: n, zh, recall1: r1 / n, recall5: r5 / n, mrr: rr / n, misses };
}

fs.mkdirSync(OUT_DIR, { recursive: true });
fs.writeFileSync(
  path.join(OUT_DIR, 'search-latest.json'),
  JSON.stringify(
    { files, chunks, node0, node0Interleaved: node0i, rows, hybrid, quality, at: new Date().toISOString() },
    null,
    2,
  ),
);
if (!keep && !arg('workdir', null)) fs.rmSync(workdir, { recursive: true, force: true });
