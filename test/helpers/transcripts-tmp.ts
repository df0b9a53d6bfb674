/** Temp files and small collectors for the transcripts tests: real files, no mocks. */
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TranscriptStream, Turn } from '../../src/transcripts/index.js';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const FIXTURES = join(ROOT, 'fixtures', 'transcripts');
export const REAL_CLAUDE = resolve(ROOT, '..', 'shared', 'fixtures', 'real-transcripts', 'claude-code');

export function tempDir(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'memfold-transcripts-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export function put(dir: string, rel: string, content: string | Buffer): string {
  const path = join(dir, rel);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  return path;
}

export function jsonl(...lines: unknown[]): string {
  return lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n';
}

export async function collect(stream: TranscriptStream): Promise<Turn[]> {
  const turns: Turn[] = [];
  for await (const turn of stream.turns) turns.push(turn);
  return turns;
}
