/**
 * Turn.cwd, the folder a session ran in, from every format that records it: Claude Code's per-line
 * `cwd` (it follows a `cd`), Codex `session_meta.cwd` then `turn_context.cwd`, OpenClaw's session
 * header, generic JSONL `cwd`/`project` (a line without one ran where the last one named), Markdown
 * front matter. A resumed read knows it as a full read does; a format that records none gives none.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { listTranscriptFiles, openTranscript, type SourceKind, type Turn } from '../src/transcripts/index.js';
import { ROOT } from './helpers/cli.js';
import { collect, FIXTURES, jsonl, put, tempDir } from './helpers/transcripts-tmp.js';

const REAL_CLAUDE = resolve(ROOT, '..', '..', 'shared', 'fixtures', 'real-transcripts', 'claude-code');

async function read(kind: SourceKind, path: string, from?: Turn): Promise<Turn[]> {
  return collect(openTranscript(path, kind, from ? { fromOffset: from.endOffset, fromIndex: from.index } : {}));
}

async function fixture(kind: SourceKind, match = ''): Promise<string> {
  const files = (await listTranscriptFiles(kind, join(FIXTURES, kind), '/')).filter((f) => f.includes(match));
  assert.equal(files.length, 1);
  return files[0]!;
}

const folders = (turns: Turn[]) => [...new Set(turns.map((t) => t.cwd))];

test("claude-code: every turn carries its line's cwd; the real sessions follow a cd into a subfolder", async (t) => {
  assert.deepEqual(folders(await read('claude-code', await fixture('claude-code'))), ['/home/dev/ledgerline']);
  if (!existsSync(REAL_CLAUDE)) return t.skip(`no real sessions at ${REAL_CLAUDE}`);
  for (const name of readdirSync(REAL_CLAUDE).filter((n) => n.endsWith('.jsonl'))) {
    const path = join(REAL_CLAUDE, name);
    const turns = await read('claude-code', path);
    // The cwd of each line that made turns, in file order: each of its turns carries exactly that one.
    const byLine = readFileSync(path, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { type: string; cwd?: string });
    const lineCwds = new Set(byLine.filter((l) => l.type === 'user' || l.type === 'assistant').map((l) => l.cwd));
    assert.ok(turns.length > 0 && turns.every((x) => typeof x.cwd === 'string' && lineCwds.has(x.cwd)), name);
    assert.deepEqual(new Set(folders(turns)), lineCwds, name);
  }
});

test('codex: session_meta.cwd holds for every turn; the older shape records none', async () => {
  const current = await fixture('codex', '2026-11-20');
  const turns = await read('codex', current);
  assert.deepEqual(folders(turns), ['/home/dev/ledgerline']);
  assert.deepEqual(
    folders(await read('codex', current, turns[5])),
    ['/home/dev/ledgerline'],
    'a resumed read replays the header',
  );
  assert.deepEqual(folders(await read('codex', await fixture('codex', '2026-11-21'))), [undefined]);
});

test("openclaw: the session header's cwd holds for every turn, on a resumed read too", async () => {
  const path = await fixture('openclaw');
  const turns = await read('openclaw', path);
  assert.deepEqual(folders(turns), ['/home/dev/.openclaw/workspace']);
  assert.deepEqual(folders(await read('openclaw', path, turns[6])), ['/home/dev/.openclaw/workspace']);
});

test('generic jsonl: cwd or project per line; a line without one ran where the last one named; none before any', async (t) => {
  const line = (content: string, extra: object = {}) => ({
    role: 'user',
    content,
    timestamp: '2026-11-24T10:00:00Z',
    session_id: 's',
    ...extra,
  });
  const path = put(
    tempDir(t),
    'g.jsonl',
    jsonl(
      line('a', { cwd: '/srv/app' }),
      line('b'),
      line('c', { project: 'billing' }),
      line('d'),
      line('e', { cwd: '/srv/app/web' }),
    ),
  );
  const turns = await read('jsonl', path);
  assert.deepEqual(
    turns.map((x) => x.cwd),
    ['/srv/app', '/srv/app', 'billing', 'billing', '/srv/app/web'],
  );
  assert.deepEqual(
    (await read('jsonl', path, turns[0])).map((x) => x.cwd),
    ['/srv/app', 'billing', 'billing', '/srv/app/web'],
    'a resumed read replays the first line',
  );
  const bare = put(tempDir(t), 'bare.jsonl', jsonl(line('a')));
  assert.deepEqual(folders(await read('jsonl', bare)), [undefined]);
  assert.deepEqual(folders(await read('jsonl', await fixture('jsonl'))), [undefined]);
});

test('markdown: front matter cwd, or project, holds for every turn, on a resumed read too', async (t) => {
  const dir = tempDir(t);
  const body = '## user\nWe decided to use pnpm.\n\n## assistant\nOK.\n\n## user\nThanks.\n';
  const withCwd = put(dir, 'a.md', `---\nsession_id: md-1\ncwd: /home/dev/ledgerline\n---\n\n${body}`);
  const turns = await read('markdown', withCwd);
  assert.deepEqual(
    turns.map((x) => x.cwd),
    Array(3).fill('/home/dev/ledgerline'),
  );
  assert.deepEqual(
    (await read('markdown', withCwd, turns[0])).map((x) => x.cwd),
    Array(2).fill('/home/dev/ledgerline'),
  );
  assert.deepEqual(folders(await read('markdown', put(dir, 'b.md', `---\nproject: ledgerline\n---\n${body}`))), [
    'ledgerline',
  ]);
  assert.deepEqual(folders(await read('markdown', await fixture('markdown'))), [undefined]);
});
