/**
 * The use log, `.mem/usage.jsonl` (DESIGN §2, §8): one JSON line per read by `mem get`, `mem context`
 * and the MCP tools, naming the entry ids read. `access` is an entry opened on its own (get);
 * `traverse` is an entry passed through on the way (a context pack, a search hit list). `mem tick`
 * ranks on it. It is per machine, derived and append-only: a reader never takes the write lock (a
 * `mem get` must not wait on a microsync) and appends one short line with O_APPEND, so concurrent
 * readers interleave whole lines; a torn line from a killed process is skipped when read.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describeError } from '../core/errors.js';
import { writablePath } from '../write/writable-path.js';

export const USAGE_FILE = '.mem/usage.jsonl';

export type UsageKind = 'access' | 'traverse';

export interface UsageEvent {
  /** ISO time (from --now). */
  t: string;
  kind: UsageKind;
  /** What read it: get, context, mcp:memory_get, mcp:memory_search, mcp:memory_context. */
  via: string;
  ids: string[];
}

/** Appends one line; returns a warning instead of failing the read that called it. */
/** `at`: the ISO time in UTC (core/instant.ts). */
export async function appendUsage(
  workspace: string,
  at: string,
  kind: UsageKind,
  via: string,
  ids: string[],
): Promise<string | undefined> {
  const unique = [...new Set(ids.filter(Boolean))];
  if (!unique.length) return undefined;
  try {
    // The writer's check: the reader's allowance (only this file) and that the path stays inside.
    const abs = writablePath(fs.realpathSync(workspace), 'reader', USAGE_FILE);
    // Synchronous: in a one-shot read the first fs.promises call would start libuv's thread pool (2-15 ms) for one line.
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    const event: UsageEvent = { t: at, kind, via, ids: unique };
    fs.appendFileSync(abs, JSON.stringify(event) + '\n', { flag: 'a' });
    return undefined;
  } catch (err) {
    return `use log not updated (${describeError(err)})`;
  }
}

export function parseUsage(text: string): UsageEvent[] {
  const out: UsageEvent[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const e = JSON.parse(line) as Partial<UsageEvent>;
      if (typeof e.t === 'string' && (e.kind === 'access' || e.kind === 'traverse') && Array.isArray(e.ids)) {
        out.push({
          t: e.t,
          kind: e.kind,
          via: String(e.via ?? ''),
          ids: e.ids.filter((x): x is string => typeof x === 'string'),
        });
      }
    } catch {
      // a torn line of a killed reader: skipped
    }
  }
  return out;
}

export async function readUsage(workspace: string): Promise<UsageEvent[]> {
  const text = await fs.promises.readFile(path.join(workspace, USAGE_FILE), 'utf8').catch(() => '');
  return parseUsage(text);
}
