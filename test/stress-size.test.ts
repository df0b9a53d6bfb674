/**
 * Size limits (stress only: `MEM_STRESS_SIZE=1`, set by `npm run test:stress`): a 200 MB transcript
 * is streamed with bounded memory, a 5 MB single line is skipped with a warning, and 100,000 small
 * transcripts are read without running out of file handles.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { BIN, childEnv, entryIds, finished, mem, ROOT, tempDir } from './helpers/cli.js';

const skip = process.env.MEM_STRESS_SIZE ? false : 'stress only (MEM_STRESS_SIZE=1, run by npm run test:stress)';
const NOW = '2026-11-22T09:00:00Z';

function workspace(t: Parameters<typeof tempDir>[0]): { ws: string; dir: string } {
  const root = tempDir(t);
  const ws = join(root, 'ws');
  const dir = join(root, 't');
  mkdirSync(ws);
  mkdirSync(dir);
  writeFileSync(
    join(ws, 'mem.config.json'),
    JSON.stringify({ format_version: 1, timezone: 'UTC', sources: [{ name: 'g', kind: 'jsonl', path: '../t' }] }),
  );
  return { ws, dir };
}

const line = (i: number, content: string, session = 'big') =>
  JSON.stringify({
    role: i % 2 ? 'assistant' : 'user',
    content,
    timestamp: new Date(Date.UTC(2026, 10, 21, 0, 0, 0, i)).toISOString(),
    session_id: session,
  }) + '\n';

test(
  'a 200 MB transcript streams with bounded memory; a 5 MB line is skipped with a warning',
  { skip, timeout: 600_000 },
  async (t) => {
    const { ws, dir } = workspace(t);
    const out = createWriteStream(join(dir, 'big.jsonl'));
    const filler = 'The build log says everything passed; nothing to decide here. '.repeat(30);
    let bytes = 0;
    for (let i = 0; bytes < 200 * 1024 * 1024; i++) {
      const l =
        i === 1000
          ? line(i, 'x'.repeat(5 * 1024 * 1024))
          : i === 2000
            ? line(i, 'From now on, release notes are written before the tag.')
            : line(i, filler);
      bytes += Buffer.byteLength(l);
      if (!out.write(l)) await new Promise<void>((r) => out.once('drain', () => r()));
    }
    await new Promise((r) => out.end(r));
    const child = spawn(
      '/usr/bin/time',
      ['-f', 'maxrss_kb=%M', process.execPath, BIN, '-C', ws, 'microsync', '--since', 'all', '--no-llm', '--now', NOW],
      { cwd: ROOT, env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const r = await finished(child, 600_000);
    assert.equal(r.code, 0, r.stderr.slice(-2000));
    const rss = Number(/maxrss_kb=(\d+)/.exec(r.stderr)?.[1]) / 1024;
    assert.match(r.stderr, /big\.jsonl:1001: .*(long|bytes)/i, 'the 5 MB line is skipped with a warning');
    assert.deepEqual(entryIds(ws), ['RULE-20261121-release-notes-are-written-before-the-tag']);
    assert.ok(rss < 512, `peak RSS ${rss.toFixed(0)} MB for ${(bytes / 1048576).toFixed(0)} MB`);
    t.diagnostic(`200 MB transcript: peak RSS ${rss.toFixed(0)} MB for ${(bytes / 1048576).toFixed(0)} MB read`);
  },
);

test(
  '100,000 small transcripts are read without running out of file handles',
  { skip, timeout: 900_000 },
  async (t) => {
    const { ws, dir } = workspace(t);
    for (let i = 0; i < 100_000; i++) {
      const sub = join(dir, String(Math.floor(i / 1000)));
      if (i % 1000 === 0) mkdirSync(sub);
      writeFileSync(
        join(sub, `s${i}.jsonl`),
        line(i, i === 4242 ? 'We decided to keep one transcript per session.' : 'ok, thanks', `s${i}`),
      );
    }
    const started = Date.now();
    const r = await mem(['-C', ws, 'microsync', '--since', 'all', '--no-llm', '--now', NOW], { timeoutMs: 900_000 });
    assert.equal(r.code, 0, r.stderr.slice(-2000));
    assert.match(r.stdout, /100000 sessions read \(100000 files\)/);
    assert.deepEqual(entryIds(ws), ['DECISION-20261121-keep-one-transcript-per-session']);
    t.diagnostic(`100,000 transcripts read in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  },
);
