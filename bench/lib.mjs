// lib.mjs — what the benchmarks share: flags, whole-process timing, median and p95, and the search
// corpus and queries (10, 4 of them Chinese) that bench/search.mjs and bench/search-server.mjs both time.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);

/** `--name value` from the command line, else `def`. */
export const arg = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? def : args[i + 1];
};
export const flag = (name) => args.includes(`--${name}`);

const hasTime = fs.existsSync('/usr/bin/time');

/** Runs a process (in `cwd`, default this one's) to its end: wall ms, exit code, output, and peak RSS (MB) with `rss` where /usr/bin/time exists. */
export function run(cmd, argv, { env = {}, rss = false, cwd } = {}) {
  const full = rss && hasTime ? ['/usr/bin/time', ['-f', '__RSS__%M', cmd, ...argv]] : [cmd, argv];
  const t = performance.now();
  const r = spawnSync(full[0], full[1], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', ...env },
    maxBuffer: 64 << 20,
    cwd,
  });
  const ms = performance.now() - t;
  const m = /__RSS__(\d+)/.exec(r.stderr ?? '');
  return { ms, code: r.status, stdout: r.stdout, stderr: r.stderr, rssMB: m ? Number(m[1]) / 1024 : null };
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const GEN_CORPUS = process.env.GEN_CORPUS || path.join(ROOT, 'bench', 'gen-corpus.mjs');

/**
 * The workspace `<workdir>/ws` of `files` files from bench/gen-corpus.mjs (deterministic), with
 * a mem.config.json whose extraPaths is the summaries folder; kept when it already exists.
 */
export function corpusWorkspace(workdir, files) {
  const ws = path.join(workdir, 'ws');
  if (fs.existsSync(path.join(ws, 'mem.config.json'))) return ws;
  const g = run(process.execPath, [GEN_CORPUS, '--size', String(files), '--out', ws, '--force']);
  if (g.code !== 0) throw new Error(`gen-corpus failed: ${g.stderr}`);
  fs.writeFileSync(
    path.join(ws, 'mem.config.json'),
    JSON.stringify({ format_version: 1, timezone: 'UTC', extraPaths: ['second-brain/summaries'] }, null, 2),
  );
  return ws;
}

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
export const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.95) - 1)];

export const SEARCH_QUERIES = [
  'why did the debounce leak memory',
  'worker_threads latency p99',
  'meilisearch benchmark',
  'oauth downgrade for the ml team',
  'grafana throughput load test',
  'podman 分片',
  '重写 tracing',
  '日誌分片',
  '决定升级 tls',
  'billing dashboard error-rate',
];

/**
 * `mem index` after editing one file, `n` times: each time one entry is appended to the oldest daily
 * file of `ws`, then `index(i)` runs and returns its whole-process result, and its JSON must say one
 * file changed. The file is restored (and indexed again, cold) at the end. Returns the times.
 */
export function oneEditIndexRuns(ws, n, index) {
  const daily = fs
    .readdirSync(path.join(ws, 'memory'))
    .filter((f) => /^\d{4}-\d{2}-\d{2}\.md$/.test(f))
    .sort()[0];
  const file = path.join(ws, 'memory', daily);
  const original = fs.readFileSync(file);
  const times = [];
  try {
    for (let i = 0; i < n; i++) {
      fs.appendFileSync(
        file,
        `\n## Note: bench edit ${i} ${Date.now()}\n- id: NOTE-bench-edit-${i}\n- why: one more entry\n`,
      );
      const r = index(i);
      if (r.code !== 0) throw new Error(r.stderr);
      const changed = JSON.parse(r.stdout).tiers.warm.changed;
      if (changed !== 1) throw new Error(`mem index saw ${changed} changed files after one edit`);
      times.push(r.ms);
    }
  } finally {
    fs.writeFileSync(file, original);
    run(process.execPath, [path.join(ROOT, 'bin', 'mem.cjs'), '-C', ws, 'index'], {
      env: { MEM_SEARCH_SERVER: 'off' },
    });
  }
  return times;
}

/**
 * bench/embedder.mjs started as a child (a bench blocks in spawnSync, so the endpoint needs its own
 * process): resolves to its `http://127.0.0.1:<port>/v1` and a stop().
 */
export async function startEmbedder(dims = 256) {
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, [path.join(ROOT, 'bench', 'embedder.mjs'), '--dims', String(dims)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`bench/embedder.mjs exited (${code})`)));
    child.stdout.once('data', (d) => resolve(String(d).trim()));
  });
  child.removeAllListeners('exit');
  return { url, stop: () => child.kill() };
}
