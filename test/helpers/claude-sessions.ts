/**
 * Claude Code sessions run in real project folders (`<root>/home/.claude/projects/<encoded folder>`, as
 * Claude Code keeps them), and the entry blocks microsync writes from them: what the scope and key
 * tests of the rule path and of the LLM path both need.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dailyText } from './cli.js';

export type Said = [role: 'user' | 'assistant', text: string];

/** A Claude Code session run in `folder`, starting at `start` (one minute a turn). */
export function claudeSession(root: string, folder: string, id: string, start: string, turns: Said[]): void {
  const dir = join(root, 'home', '.claude', 'projects', folder.replace(/[^A-Za-z0-9]/g, '-'));
  mkdirSync(dir, { recursive: true });
  const t0 = Date.parse(start);
  const lines = turns.map(([role, text], i) =>
    JSON.stringify({
      type: role,
      sessionId: id,
      cwd: folder,
      isSidechain: false,
      uuid: `${id}-${i}`,
      timestamp: new Date(t0 + i * 60_000).toISOString(),
      message: { role, content: role === 'user' ? text : [{ type: 'text', text }] },
    }),
  );
  writeFileSync(join(dir, `${id}.jsonl`), lines.join('\n') + '\n');
}

/** The entry blocks of the daily files, each as its text. */
export const blocks = (ws: string) =>
  dailyText(ws)
    .split(/^(?=## )/m)
    .filter((b) => b.startsWith('## '));

export const blockWith = (ws: string, words: string) => {
  const b = blocks(ws).find((x) => x.includes(words));
  assert.ok(b, `no entry says "${words}":\n${dailyText(ws)}`);
  return b;
};

export const field = (block: string, key: string) => new RegExp(`^- ${key}: (.*)$`, 'm').exec(block)?.[1];
