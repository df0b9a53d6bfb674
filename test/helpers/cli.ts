/**
 * Runs the built CLI (`bin/mem.cjs` → `dist/`) as a real child process, and makes temp workspaces.
 * `npm test` builds first; a test file run on its own needs `npm run build` before it.
 * Children are spawned asynchronously so a test's own HTTP server keeps answering while they run.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BIN = join(ROOT, 'bin', 'mem.cjs');

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  timeoutMs?: number;
}

/** Environment for a child: no colours, no user-level config from the machine running the tests. */
export function childEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NO_COLOR: '1',
    XDG_CONFIG_HOME: join(tmpdir(), 'memfold-test-no-user-config'),
  };
  delete env.MEM_WORKSPACE;
  delete env.MEM_NOW;
  delete env.MEM_DEBUG;
  env.MEM_SEARCH_SERVER ??= 'no-spawn'; // a search never starts a resident server on demand in tests (src/search/server/client.ts)
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

export function startMem(args: string[], opts: RunOptions = {}): ChildProcess {
  return spawn(process.execPath, [BIN, ...args], {
    cwd: opts.cwd ?? ROOT,
    env: childEnv(opts.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Resolves when the child prints `text` on stderr; rejects if it exits first. */
export function waitForStderr(child: ChildProcess, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stderr!.on('data', (d: Buffer) => {
      seen += d.toString();
      if (seen.includes(text)) resolve();
    });
    child.on('exit', () => reject(new Error(`exited before printing "${text}":\n${seen}`)));
  });
}

export function finished(child: ChildProcess, timeoutMs = 60_000): Promise<RunResult> {
  return new Promise((resolvePromise, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`mem did not finish within ${timeoutMs} ms\n${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code, signal, stdout, stderr });
    });
  });
}

export function mem(args: string[], opts: RunOptions = {}): Promise<RunResult> {
  return finished(startMem(args, opts), opts.timeoutMs);
}

/** `mem` that must succeed: fails the test with the command line and its stderr otherwise. */
export async function memOk(args: string[], opts: RunOptions = {}): Promise<RunResult> {
  const r = await mem(args, opts);
  assert.equal(r.code, 0, `mem ${args.join(' ')}: ${r.stderr}`);
  return r;
}

export function tempDir(t: { after(fn: () => void): void }, prefix = 'memfold-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A copy of the bundled example: `<dir>/workspace` (sources at `../transcripts/<kind>`) and `<dir>/transcripts`. */
export function exampleWorkspace(t: { after(fn: () => void): void }): {
  root: string;
  ws: string;
  transcripts: string;
} {
  const root = tempDir(t);
  cpSync(join(ROOT, 'fixtures', 'example-workspace'), join(root, 'workspace'), { recursive: true });
  cpSync(join(ROOT, 'fixtures', 'transcripts'), join(root, 'transcripts'), { recursive: true });
  return { root, ws: join(root, 'workspace'), transcripts: join(root, 'transcripts') };
}

/**
 * A fresh workspace (`mem init`) reading transcripts of one kind from `<root>/tr`, and nothing else;
 * with `llm`, an OpenAI-compatible endpoint for microsync's LLM path.
 */
export async function transcriptWorkspace(
  t: { after(fn: () => void): void },
  kind: 'jsonl' | 'markdown',
  llm?: string,
): Promise<{ ws: string; tr: string }> {
  const root = tempDir(t);
  const ws = join(root, 'ws');
  const tr = join(root, 'tr');
  mkdirSync(tr);
  const init = await mem(['init', ws]);
  assert.equal(init.code, 0, init.stderr);
  const cfg: Record<string, unknown> = {
    format_version: 1,
    timezone: 'UTC',
    sources: [{ name: 's', kind, path: '../tr' }],
    exclude: [],
    extraPaths: [],
  };
  if (llm) cfg.llm = { baseURL: llm, model: 'test-model', timeoutMs: 2000, maxRetries: 1 };
  writeFileSync(join(ws, 'mem.config.json'), JSON.stringify(cfg) + '\n');
  return { ws, tr };
}

export function editConfig(ws: string, edit: (cfg: Record<string, unknown>) => void): void {
  const file = join(ws, 'mem.config.json');
  const cfg = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  edit(cfg);
  writeFileSync(file, JSON.stringify(cfg, null, 2) + '\n');
}

/** Every file under `dir` (relative path → bytes as text), for byte-identity comparisons. */
export function snapshot(
  dir: string,
  skip: (rel: string) => boolean = (rel) => rel.startsWith('.mem/') || rel.includes('.locks'),
): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const full = join(d, name);
      const rel = relative(dir, full).split('\\').join('/');
      if (skip(rel)) continue;
      if (statSync(full).isDirectory()) walk(full);
      else out.set(rel, readFileSync(full, 'utf8'));
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

/** The contents of every daily file, joined, for assertions on what landed in memory. */
export function dailyText(ws: string): string {
  return [...snapshot(join(ws, 'memory'))]
    .filter(([rel]) => /^\d{4}-\d{2}-\d{2}\.md$/.test(rel))
    .map(([, text]) => text)
    .join('\n');
}

export function entryIds(ws: string): string[] {
  return [...dailyText(ws).matchAll(/^- id: (\S+)$/gm)].map((m) => m[1]!).sort();
}
