#!/usr/bin/env node
// archive.mjs — benchmark of the archive tier: `mem archive` (indexing throughput) and cold
// `mem search --archive` latency, over transcripts from bench/gen-transcripts.mjs.
//
// Usage (from the project root, after `npm run build`; `npm run bench:archive` does both):
//   node bench/archive.mjs [--files 200] [--mb 50] [--big-mb 500] [--runs 3] [--workdir DIR] [--keep]
//
// 1. generates the transcripts (deterministic seed, 200 files / 50 MB by default);
// 2. baseline: `node -e 0`, median of 20; every latency is also a ratio to it (target ≤ 3×);
// 3. `mem archive --rebuild`: wall time, MB/s of transcript bytes read, peak RSS, index size;
// 4. `mem archive` with nothing new (cursor checks only), then after appending one line to one file
//    (bytes read must equal the appended line);
// 5. cold `mem search --archive`: 8 queries (3 Chinese) × --runs, median and p95 of whole-process time;
// 6. `mem archive --rebuild` over --big-mb (default 500; 0 skips) of transcripts in as many files: peak
//    RSS there over peak RSS at --mb, target ≤ 1.2 (the rebuild streams: memory must not grow with volume).
// Results: a table on stdout and bench/out/archive-latest.json.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { arg, flag, median, p95, run as runProcess } from './lib.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MEM = path.join(ROOT, 'bin', 'mem.cjs');
const GEN = path.join(ROOT, 'bench', 'gen-transcripts.mjs');
const OUT_DIR = path.join(ROOT, 'bench', 'out');
const files = arg('files', '200');
const mb = arg('mb', '50');
const runs = Math.max(1, parseInt(arg('runs', '3'), 10));
const keep = flag('keep');
const workdir = arg('workdir', null) ?? fs.mkdtempSync(path.join(os.tmpdir(), 'memfold-bench-archive-'));
const QUERIES = [
  'connection pool timeout',
  'migration rollback',
  'websocket reconnect',
  'flaky test retry',
  'docker build cache',
  '部署',
  '缓存',
  '決定',
];
/** A process that must succeed. */
function run(cmd, argv, { rss } = {}) {
  const r = runProcess(cmd, argv, { rss });
  if (r.code !== 0) throw new Error(`${cmd} ${argv.join(' ')} exited ${r.code}: ${r.stderr}`);
  return r;
}
const dirBytes = (dir) => fs.readdirSync(dir).reduce((n, f) => n + fs.statSync(path.join(dir, f)).size, 0);

const ws = path.join(workdir, 'ws');
console.error(`transcripts: ${files} files / ${mb} MB in ${ws}`);
if (!fs.existsSync(path.join(ws, 'mem.config.json')))
  run(process.execPath, [GEN, '--out', ws, '--files', files, '--mb', mb, '--force']);
const node0 = median(Array.from({ length: 20 }, () => run(process.execPath, ['-e', '0']).ms));
console.log(`node -e 0 (median of 20): ${node0.toFixed(1)} ms\n`);
const result = { node0, files: Number(files), mb: Number(mb) };

const full = run(process.execPath, [MEM, '-C', ws, '--json', 'archive', '--rebuild'], { rss: true });
const u = JSON.parse(full.stdout);
result.index = {
  ms: Math.round(full.ms),
  inProcessMs: u.ms,
  bytesRead: u.bytesRead,
  MBps: u.bytesRead / 1048576 / (full.ms / 1000),
  turns: u.turns,
  docs: u.docs,
  segments: u.segments,
  rssMB: full.rssMB,
  indexMB: dirBytes(path.join(ws, '.mem', 'archive')) / 1048576,
};
console.log(
  `mem archive --rebuild: ${(full.ms / 1000).toFixed(1)} s for ${(u.bytesRead / 1048576).toFixed(1)} MB → ${result.index.MBps.toFixed(1)} MB/s (${u.turns} turns, ${u.docs} windows, ${u.segments} segments, peak RSS ${full.rssMB?.toFixed(0) ?? '?'} MB, index ${result.index.indexMB.toFixed(1)} MB)`,
);

const idle = run(process.execPath, [MEM, '-C', ws, '--json', 'archive']);
result.idle = { ms: Math.round(idle.ms), bytesRead: JSON.parse(idle.stdout).bytesRead };
console.log(
  `mem archive, nothing new: ${idle.ms.toFixed(0)} ms (${(idle.ms / node0).toFixed(2)}×), ${result.idle.bytesRead} bytes read`,
);

const target = fs.readdirSync(path.join(ws, 'transcripts', 'jsonl')).find((f) => f.endsWith('.jsonl'));
const line =
  JSON.stringify({
    role: 'user',
    content: 'benchmark appended line about quokkas',
    timestamp: '2026-11-21T23:59:00Z',
    session_id: 'bench',
  }) + '\n';
fs.appendFileSync(path.join(ws, 'transcripts', 'jsonl', target), line);
const one = run(process.execPath, [MEM, '-C', ws, '--json', 'archive']);
result.append = {
  ms: Math.round(one.ms),
  bytesRead: JSON.parse(one.stdout).bytesRead,
  appended: Buffer.byteLength(line),
};
console.log(
  `mem archive after a ${result.append.appended}-byte append: ${one.ms.toFixed(0)} ms, ${result.append.bytesRead} bytes read`,
);

const times = [];
for (let i = 0; i < runs; i++)
  for (const q of QUERIES) times.push(run(process.execPath, [MEM, '-C', ws, 'search', '--archive', q, '-k', '6']).ms);
result.search = {
  runs: times.length,
  medianMs: median(times),
  p95Ms: p95(times),
  medianRatio: median(times) / node0,
  p95Ratio: p95(times) / node0,
};
console.log(
  `cold mem search --archive (${times.length} runs): median ${median(times).toFixed(0)} ms (${result.search.medianRatio.toFixed(2)}× node -e 0), p95 ${p95(times).toFixed(0)} ms (${result.search.p95Ratio.toFixed(2)}×)`,
);

const bigMb = Number(arg('big-mb', '500'));
if (bigMb > 0 && full.rssMB) {
  const big = path.join(workdir, 'big');
  console.error(`transcripts: ${files} files / ${bigMb} MB in ${big}`);
  if (!fs.existsSync(path.join(big, 'mem.config.json')))
    run(process.execPath, [GEN, '--out', big, '--files', files, '--mb', String(bigMb), '--force']);
  const r = run(process.execPath, [MEM, '-C', big, '--json', 'archive', '--rebuild'], { rss: true });
  result.rss = { smallMB: mb, bigMB: bigMb, small: full.rssMB, big: r.rssMB, ratio: r.rssMB / full.rssMB, target: 1.2 };
  console.log(
    `peak RSS of mem archive --rebuild: ${full.rssMB.toFixed(0)} MB at ${mb} MB, ${r.rssMB.toFixed(0)} MB at ${bigMb} MB of transcripts: ratio ${result.rss.ratio.toFixed(2)} (target ≤ 1.2)`,
  );
}

fs.mkdirSync(OUT_DIR, { recursive: true });
fs.writeFileSync(
  path.join(OUT_DIR, 'archive-latest.json'),
  JSON.stringify(
    { at: new Date().toISOString(), host: { cpus: os.cpus().length, node: process.version }, ...result },
    null,
    2,
  ) + '\n',
);
if (!keep && !arg('workdir', null)) fs.rmSync(workdir, { recursive: true, force: true });
