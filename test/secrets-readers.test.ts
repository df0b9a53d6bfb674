/**
 * DESIGN §9 invariant 5 where the readers shape the text before the redaction gate sees it: a tool
 * output cut at 2,000 characters, a key split over two turns, a `key=value` in a file name. Through the built CLI, a Claude Code transcript is read by
 * microsync (LLM extractor) and the archive (with embeddings); no piece of the secret may reach a
 * workspace file (`.mem/` too), a request to the model server, or the commands' output.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { SAMPLE_SECRETS } from './fixtures/secrets/corpus.js';
import { editConfig, mem, snapshot, tempDir } from './helpers/cli.js';
import { promptTurns, startOpenAIServer, wireEntry } from './helpers/openai-server.js';

const NOW = '2026-11-22T09:00:00Z';
const SESSION = 'd1b2c3d4-0000-4000-8000-000000000003';
const time = (i: number) => new Date(Date.UTC(2026, 10, 21, 10, 0, i)).toISOString();

/** A Claude Code line of this session. */
function line(i: number, type: 'user' | 'assistant', content: unknown): string {
  return JSON.stringify({
    parentUuid: null,
    isSidechain: false,
    userType: 'external',
    cwd: '/home/dev/app',
    sessionId: SESSION,
    version: '1.0.98',
    type,
    message: { role: type, content },
    uuid: `u-${i}`,
    timestamp: time(i),
  });
}

/**
 * Writes `files` (path under the Claude Code source → lines), runs microsync with an LLM that
 * echoes every user turn, then the archive with embeddings and a search of it; returns every text
 * that left memfold: workspace files, requests to the server, and what the commands printed.
 */
async function everythingWritten(
  t: Parameters<typeof tempDir>[0],
  files: Record<string, string[]>,
  search: string,
): Promise<string> {
  const root = tempDir(t);
  const ws = join(root, 'ws');
  mkdirSync(ws);
  for (const [rel, lines] of Object.entries(files)) {
    const file = join(root, 'claude', rel);
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, lines.join('\n') + '\n');
  }
  const llm = await startOpenAIServer();
  t.after(() => llm.close());
  llm.chat.handler = (body) => ({
    entries: promptTurns(body)
      .filter((turn) => turn.role === 'user')
      .map((turn) =>
        wireEntry({
          title: turn.text.slice(0, 100),
          conclusion: turn.text,
          confidence: 0.9,
          first_turn: turn.index,
          last_turn: turn.index,
        }),
      ),
  });
  writeFileSync(
    join(ws, 'mem.config.json'),
    JSON.stringify({
      format_version: 1,
      timezone: 'UTC',
      sources: [{ name: 'claude', kind: 'claude-code', path: '../claude' }],
    }),
  );
  editConfig(ws, (cfg) => {
    cfg.llm = { baseURL: llm.url, model: 'echo' };
    cfg.embedding = { baseURL: llm.url, model: 'test-embed', dimensions: 8 };
    cfg.archive = { embed: true };
  });
  const runs = [
    await mem(['-C', ws, 'microsync', '--since', 'all', '--now', NOW]),
    await mem(['-C', ws, 'archive']),
    await mem(['-C', ws, '--json', 'search', '--archive', search]),
    await mem(['-C', ws, '--json', 'search', search]),
  ];
  for (const r of runs) assert.equal(r.code, 0, r.stderr);
  assert.ok(llm.chat.requests.length >= 1 && llm.embeddings.requests.length >= 1, 'the model server was asked');
  // Cursors alone (local, git-ignored) key a file by its real path, to resume it (README).
  const workspace = [
    ...snapshot(
      ws,
      (rel) => rel.includes('.locks') || rel === '.mem/cursors.json' || rel === '.mem/archive/state.json',
    ).values(),
  ];
  return [...workspace, ...llm.requests.map((q) => q.raw), ...runs.flatMap((r) => [r.stdout, r.stderr])].join('\n');
}

/** Every `size`-character piece of `secret` found in `text`. */
function pieces(text: string, secret: string, size = 8): string[] {
  const found: string[] = [];
  for (let i = 0; i + size <= secret.length; i++)
    if (text.includes(secret.slice(i, i + size))) found.push(secret.slice(i, i + size));
  return found;
}

test('a token across the 2,000-character cut of a tool output: redacted before the cut, no piece of it lands or is sent', async (t) => {
  const token = 'ghp_CuTt0k3nZq8RmT4vXw2YbN6cLp0sKd3FhJ7g';
  const vars = Array.from({ length: 150 }, (_, i) => `VAR_${i}=value_${i}_abcdefghij`).join('\n');
  // `env` output whose token has its first 12 characters before the cut.
  const env = `${vars.slice(0, 2000 - 'GITHUB_TOKEN='.length - 12 - 1)}\nGITHUB_TOKEN=${token}\n${vars}`;
  const written = await everythingWritten(
    t,
    {
      '-home-dev-app/d1b2c3d4.jsonl': [
        line(0, 'user', 'Remember this: CI runs on ubuntu-24.04.'),
        line(1, 'assistant', [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'env' } }]),
        line(2, 'user', [{ type: 'tool_result', tool_use_id: 't1', content: env }]),
      ],
    },
    'GITHUB_TOKEN',
  );
  assert.ok(written.includes('VAR_1=value_1_abcdefghij'), 'the tool output was archived');
  assert.deepEqual(pieces(written, token, 6), []);
});

test('a private key pasted over two messages: the second, without its BEGIN line, is redacted up to its END line', async (t) => {
  const lines = SAMPLE_SECRETS.rsa.split('\n');
  const tail = lines.slice(4);
  const written = await everythingWritten(
    t,
    {
      '-home-dev-app/d1b2c3d4.jsonl': [
        line(0, 'user', `Here's my deploy key, first half:\n${lines.slice(0, 4).join('\n')}`),
        line(1, 'user', `and the rest:\n${tail.join('\n')}\nRemember this: the deploy key lives in ~/.ssh/deploy_rsa`),
      ],
    },
    'deploy key',
  );
  assert.ok(written.includes('the deploy key lives in ~/.ssh/deploy_rsa'), 'the statement after the key was kept');
  assert.deepEqual(
    lines.slice(1, -1).flatMap((l) => pieces(written, l)),
    [],
  );
});

test("a password=value in a transcript's file name is redacted in session_path, the index, embeddings and search", async (t) => {
  const password = 'PathPw0rdXq7Zr';
  const written = await everythingWritten(
    t,
    {
      [`-home-dev-app/notes-password=${password}.jsonl`]: [
        line(0, 'user', 'Remember this: the cache TTL is 5 minutes.'),
      ],
    },
    'cache TTL',
  );
  assert.match(written, /session_path: \S*\/notes-password=\[REDACTED:password\]/);
  assert.deepEqual(pieces(written, password, 6), []);
});

test('warnings name a transcript by its redacted path: malformed, misdated and rewritten', async (t) => {
  const token = 'ghp_PaThT0k3nZq8RmT4vXw2YbN6cLp0sKd3FhJ7g';
  const root = tempDir(t);
  const ws = join(root, 'ws');
  mkdirSync(ws);
  writeFileSync(
    join(ws, 'mem.config.json'),
    JSON.stringify({
      format_version: 1,
      timezone: 'UTC',
      sources: [{ name: 'claude', kind: 'claude-code', path: '../claude' }],
    }),
  );
  const file = join(root, 'claude', `-home-dev-${token}`, 'b1b2c3d4.jsonl');
  mkdirSync(join(file, '..'), { recursive: true });
  const future = line(1, 'user', 'Remember this: the runner uses 4 cores.').replace(
    time(1),
    '2027-03-10T10:00:00.000Z',
  );
  writeFileSync(
    file,
    [
      line(0, 'user', 'Remember this: builds run on the ci-runner box.'),
      '{"type":"user", this is broken',
      future,
      line(2, 'user', 'ok'),
    ].join('\n') + '\n',
  );
  const first = await mem(['-C', ws, 'microsync', '--since', 'all', '--now', NOW]);
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stderr, /-home-dev-\[REDACTED:github-pat\]\/b1b2c3d4\.jsonl:2: malformed line skipped/);
  assert.match(first.stderr, /-home-dev-\[REDACTED:github-pat\]\/b1b2c3d4\.jsonl line 3: dated 2027/);
  writeFileSync(
    file,
    [line(0, 'user', 'Remember this: builds run elsewhere now, on the new box.'), line(2, 'user', 'ok')].join('\n') +
      '\n',
  );
  const again = await mem(['-C', ws, 'microsync', '--now', NOW]);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stderr, /-home-dev-\[REDACTED:github-pat\]\/b1b2c3d4\.jsonl: .*read again from the start/);
  assert.deepEqual(pieces(first.stderr + again.stderr, token), []);
});
