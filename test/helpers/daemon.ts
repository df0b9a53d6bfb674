/**
 * Helpers for the daemon, status, schedule and git tests: fresh transcripts stamped "now" (so a
 * scheduled microsync finds them in its first-run window), polling with generous deadlines, and the
 * job log as parsed lines.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { editConfig, exampleWorkspace } from './cli.js';

export interface LogLine {
  job: string;
  trigger: string;
  pid: number;
  outcome: string;
  exitCode: number;
  message?: string;
  counts: Record<string, number>;
  changed?: string[];
  start: string;
  end: string;
}

/**
 * The example workspace set up for a daemon: microsync every 2 s from `<root>/fresh` (node-cron's
 * seconds field), the other jobs off, short debounce, grace and lock times; `extra` edits on top.
 */
export function daemonWorkspace(
  t: Parameters<typeof exampleWorkspace>[0],
  extra: (cfg: Record<string, unknown>) => void = () => {},
) {
  const ex = exampleWorkspace(t);
  editConfig(ex.ws, (cfg) => {
    cfg.sources = [{ name: 'notes', kind: 'markdown', path: '../fresh' }];
    cfg.schedule = { microsync: '*/2 * * * * *', wrapup: 'off', compound: 'off' };
    cfg.daemon = { debounceMs: 300, refreshMs: 0, killGraceMs: 2000 };
    cfg.limits = { lockStaleMs: 2000, lockWaitMs: 8000 };
    extra(cfg);
  });
  return { ...ex, fresh: join(ex.root, 'fresh') };
}

/**
 * A Markdown transcript whose turns happened a minute ago, with one settled decision per title, and
 * the assistant's answer after them: a file written just now may be mid-turn, so its last turn waits.
 */
export function freshTranscript(dir: string, name: string, decisions: string[]): string {
  mkdirSync(dir, { recursive: true });
  const t = new Date(Date.now() - 60_000).toISOString().replace(/\.\d+Z$/, 'Z');
  const turns = [
    ...decisions.map((d) => `## user · ${t}\n\nWe decided to ${d} because the old way kept failing in production.\n`),
    `## assistant · ${t}\n\nNoted.\n`,
  ].join('\n');
  const file = join(dir, `${name}.md`);
  writeFileSync(file, `---\nsession_id: ${name}\nstarted_at: ${t}\n---\n\n${turns}`);
  return file;
}

export function jobLog(ws: string): LogLine[] {
  const file = join(ws, '.mem', 'logs', 'jobs.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as LogLine);
}

export async function waitFor<T>(
  what: string,
  fn: () => T | undefined | false,
  timeoutMs = 30_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Collects a child's stderr as it arrives (for daemons, which run until stopped). */
export function stderrOf(child: ChildProcess): { text: () => string } {
  let text = '';
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (text += d));
  return { text: () => text };
}
