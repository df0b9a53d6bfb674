/**
 * One evaluation run of a split: a fresh workspace (`mem init`), one source per transcript format
 * pointing at a copy of the split's session files, `mem microsync --since all --json` at a fixed
 * `--now`, then the entries read back from memory/ and attributed to the exchange whose session file
 * their `source.session_path` (or session id) names. Only the built CLI is used, as a child process.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readMemory } from './entries.mjs';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const FIXTURES = join(ROOT, 'fixtures', 'extraction');
export const FORMATS = ['claude-code', 'codex', 'openclaw', 'jsonl', 'markdown'];
export const NOW = '2026-11-26T12:00:00Z';
/** Transcripts are dated before NOW and made idle (mtime) well before it, so nothing is "still being written". */
const IDLE_SINCE = new Date('2026-11-25T00:00:00Z');

/** A split's gold; `from` keeps exchanges numbered from it on (x1147… is the fresh batch), `limit` the first N. */
export function loadGold(split, limit, from = 0) {
  const file = join(FIXTURES, split, 'gold.jsonl');
  if (!existsSync(file)) throw new Error(`no labelled set at ${file}: run node fixtures/extraction/build.mjs`);
  const all = readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .filter((x) => Number(x.id.slice(1).split('-')[0]) >= from);
  return limit ? all.slice(0, limit) : all;
}

export function runMem(args, { cwd = ROOT, env = {}, timeoutMs = 600_000 } = {}) {
  return new Promise((resolvePromise, reject) => {
    const childEnv = {
      ...process.env,
      NO_COLOR: '1',
      XDG_CONFIG_HOME: join(tmpdir(), 'memfold-eval-no-user-config'),
      MEM_SEARCH_SERVER: 'no-spawn',
      ...env,
    };
    delete childEnv.MEM_WORKSPACE;
    delete childEnv.MEM_NOW;
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'mem.cjs'), ...args], {
      cwd,
      env: childEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
  });
}

/** Makes `<dir>/ws` (mem init + sources) and copies the exchanges' session files to `<dir>/tr/<format>/…`. */
export async function prepare(dir, split, exchanges, llm) {
  const ws = join(dir, 'ws');
  const tr = join(dir, 'tr');
  const init = await runMem(['init', ws]);
  if (init.code !== 0) throw new Error(`mem init failed: ${init.stderr.trim()}`);
  for (const x of exchanges) {
    const to = join(tr, x.file);
    mkdirSync(dirname(to), { recursive: true });
    cpSync(join(FIXTURES, split, x.file), to);
    utimesSync(to, IDLE_SINCE, IDLE_SINCE);
  }
  for (const f of FORMATS) mkdirSync(join(tr, f), { recursive: true });
  const cfgFile = join(ws, 'mem.config.json');
  const cfg = JSON.parse(readFileSync(cfgFile, 'utf8'));
  cfg.timezone = 'UTC';
  cfg.sources = FORMATS.map((kind) => ({ name: `eval-${kind}`, kind, path: join(tr, kind) }));
  if (llm)
    cfg.llm = { maxCallsPerRun: 100_000, maxTokensPerRun: 1_000_000_000, timeoutMs: 120_000, maxRetries: 2, ...llm };
  else delete cfg.llm;
  writeFileSync(cfgFile, JSON.stringify(cfg, null, 2) + '\n');
  return { ws, tr };
}

export async function microsync(ws, env = {}) {
  const r = await runMem(['-C', ws, 'microsync', '--since', 'all', '--json', '--now', NOW], { env });
  let summary = null;
  try {
    summary = JSON.parse(r.stdout);
  } catch {
    // not JSON: reported below with stderr
  }
  if (r.code !== 0 || !summary)
    throw new Error(`mem microsync exited ${r.code}: ${r.stderr.trim().split('\n').slice(-3).join(' | ')}`);
  return { summary, stderr: r.stderr };
}

/** Landed entries by exchange id, by the session file path they cite (or, failing that, the session id). */
export function attribute(ws, exchanges) {
  const { entries, text } = readMemory(join(ws, 'memory'));
  const byExchange = new Map();
  const unattributed = [];
  const norm = (p) => (p ?? '').replace(/\\/g, '/');
  for (const e of entries) {
    const path = norm(e.source.session_path);
    const sid = e.source.session_id ?? '';
    const x =
      (path && exchanges.find((c) => path.endsWith(`/${c.file}`) || path.endsWith(c.file))) ||
      (sid && exchanges.find((c) => c.file.includes(sid)));
    if (x) byExchange.set(x.id, [...(byExchange.get(x.id) ?? []), e]);
    else unattributed.push(e);
  }
  return { byExchange, unattributed, text, entries };
}
