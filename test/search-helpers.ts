/** Shared helpers of the search tests: a copy of the search fixture and JSON runs of the CLI. */
import assert from 'node:assert/strict';
import { cpSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { mem, ROOT, tempDir, type RunResult } from './helpers/cli.js';

export const FIXTURE = join(ROOT, 'test', 'fixtures', 'search', 'basic');
export const NOW = '2026-11-22T12:00:00Z';

export function searchWorkspace(t: { after(fn: () => void): void }): string {
  const ws = join(tempDir(t, 'memfold-search-'), 'ws');
  cpSync(FIXTURE, ws, { recursive: true });
  return ws;
}

export async function ok(args: string[], env?: Record<string, string | undefined>): Promise<RunResult> {
  const r = await mem(args, { env });
  assert.equal(r.code, 0, `mem ${args.join(' ')} exited ${r.code}\n${r.stderr}`);
  return r;
}

export interface SearchJson {
  query: string;
  tier: string;
  indexBehind: boolean;
  results: Record<string, any>[];
}

export async function search(ws: string, query: string, ...flags: string[]): Promise<SearchJson & { stderr: string }> {
  const r = await ok(['-C', ws, '--json', '--now', NOW, 'search', query, ...flags]);
  return { ...(JSON.parse(r.stdout) as SearchJson), stderr: r.stderr };
}

export async function index(
  ws: string,
  ...flags: string[]
): Promise<
  { tiers: Record<string, Record<string, number | string | boolean | null>>; embeddings: any; warnings: string[] } & {
    stderr: string;
  }
> {
  const r = await ok(['-C', ws, '--json', 'index', ...flags]);
  return { ...JSON.parse(r.stdout), stderr: r.stderr };
}

/** A tier file's lines of JSON (src/search/index/tier-file.ts): the head, and the manifest's buckets merged into one record. */
export function readTier(ws: string, tier: 'warm' | 'cold'): { head: Record<string, any>; files: Record<string, any> } {
  const [head, ...buckets] = readFileSync(join(ws, '.mem', 'index', `${tier}.json`), 'utf8')
    .trimEnd()
    .split('\n');
  return { head: JSON.parse(head!), files: Object.assign({}, ...buckets.map((b) => JSON.parse(b))) };
}

/** Rewrites a tier file's head (to damage or age it in a test), keeping its manifest. */
export function writeTierHead(ws: string, tier: 'warm' | 'cold', head: Record<string, any>): void {
  const file = join(ws, '.mem', 'index', `${tier}.json`);
  const text = readFileSync(file, 'utf8');
  writeFileSync(file, `${JSON.stringify(head)}${text.slice(text.indexOf('\n'))}`);
}

/** Sum of one counter over the tiers. */
export function total(res: { tiers: Record<string, Record<string, unknown>> }, key: string): number {
  return Object.values(res.tiers).reduce((n, t) => n + Number(t[key] ?? 0), 0);
}

/** Every file under `dir` with its bytes and mtime, to prove a command wrote nothing. */
export function fingerprint(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const full = join(d, name);
      const st = statSync(full);
      if (st.isDirectory()) walk(full);
      else out.set(relative(dir, full), `${st.mtimeMs}:${readFileSync(full).toString('base64')}`);
    }
  };
  walk(dir);
  return out;
}

export const ids = (res: SearchJson) => res.results.map((r) => r.id ?? `${r.path}:${r.startLine}`);
