/**
 * DESIGN §9 invariant 5 end to end: every secret shape of the corpus, said as a settled statement in
 * a transcript of each format, through the built CLI with the rule-based and the LLM extractor. No
 * secret may appear in any workspace file or in any request the LLM server receives.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { SAMPLE_SECRETS, SECRET_SAMPLES } from './fixtures/secrets/corpus.js';
import { editConfig, entryIds, mem, snapshot, tempDir } from './helpers/cli.js';
import {
  promptTurns,
  startOpenAIServer,
  wireEntry,
  type ChatRequestBody,
  type OpenAIServer,
} from './helpers/openai-server.js';

const NOW = '2026-11-22T09:00:00Z';
const time = (i: number) => new Date(Date.UTC(2026, 10, 21, 10, 0, i)).toISOString();
const statements = SECRET_SAMPLES.map((s, i) => `Remember this, item ${i}: ${s.text}`);

/** One transcript per format, each user turn a "remember this" holding one secret. */
const FORMATS: Record<string, { kind: string; file: string; body: () => string }> = {
  'claude-code': {
    kind: 'claude-code',
    file: 'proj/0f0e0d0c-0000-4000-8000-000000000001.jsonl',
    body: () =>
      statements
        .map((text, i) =>
          JSON.stringify({
            parentUuid: null,
            isSidechain: false,
            userType: 'external',
            cwd: '/home/dev/shop',
            sessionId: '0f0e0d0c-0000-4000-8000-000000000001',
            version: '1.0.98',
            type: 'user',
            message: { role: 'user', content: text },
            uuid: `u-${i}`,
            timestamp: time(i),
          }),
        )
        .join('\n') + '\n',
  },
  codex: {
    kind: 'codex',
    file: '2026/11/21/rollout-2026-11-21T10-00-00-0f0e0d0c-0000-4000-8000-000000000002.jsonl',
    body: () =>
      [
        JSON.stringify({
          timestamp: time(0),
          type: 'session_meta',
          payload: {
            id: '0f0e0d0c-0000-4000-8000-000000000002',
            timestamp: time(0),
            cwd: '/home/dev/shop',
            originator: 'codex_cli_rs',
            cli_version: '0.58.0',
          },
        }),
        ...statements.map((text, i) =>
          JSON.stringify({
            timestamp: time(i),
            type: 'response_item',
            payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] },
          }),
        ),
      ].join('\n') + '\n',
  },
  openclaw: {
    kind: 'openclaw',
    file: 'agents/main/sessions/0f0e0d0c-0000-4000-8000-000000000003.jsonl',
    body: () =>
      [
        JSON.stringify({
          type: 'session',
          version: 3,
          id: '0f0e0d0c-0000-4000-8000-000000000003',
          timestamp: time(0),
          cwd: '/home/dev',
        }),
        ...statements.map((text, i) =>
          JSON.stringify({
            type: 'message',
            id: `m${i}`,
            parentId: null,
            timestamp: time(i),
            message: { role: 'user', content: [{ type: 'text', text }], timestamp: Date.parse(time(i)) },
          }),
        ),
      ].join('\n') + '\n',
  },
  jsonl: {
    kind: 'jsonl',
    file: 'generic.jsonl',
    body: () =>
      statements
        .map((text, i) =>
          JSON.stringify({ role: 'user', content: text, timestamp: time(i), session_id: 'generic-secrets' }),
        )
        .join('\n') + '\n',
  },
  markdown: {
    kind: 'markdown',
    file: 'chat.md',
    body: () =>
      `---\nsession_id: md-secrets\nstarted_at: ${time(0)}\n---\n\n` +
      statements.map((text, i) => `## user · ${time(i)}\n\n${text}\n`).join('\n'),
  },
};

function secretWorkspace(t: Parameters<typeof tempDir>[0]) {
  const root = tempDir(t);
  const ws = join(root, 'ws');
  mkdirSync(ws);
  writeFileSync(
    join(ws, 'mem.config.json'),
    JSON.stringify({
      format_version: 1,
      timezone: 'UTC',
      sources: Object.entries(FORMATS).map(([name, f]) => ({ name, kind: f.kind, path: `../t/${name}` })),
    }),
  );
  for (const [name, f] of Object.entries(FORMATS)) {
    const file = join(root, 't', name, f.file);
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, f.body());
  }
  return ws;
}

function leaked(text: string): string[] {
  return SECRET_SAMPLES.filter((s) => text.includes(s.secret)).map((s) => `${s.kind}: ${s.secret.slice(0, 12)}…`);
}

const workspaceText = (ws: string) => [...snapshot(ws, (rel) => rel.includes('.locks')).values()].join('\n');

describe(`${SECRET_SAMPLES.length} secret shapes in 5 transcript formats`, () => {
  test('rule-based extractor: every statement lands, no secret does', async (t) => {
    const ws = secretWorkspace(t);
    const r = await mem(['-C', ws, '--json', 'microsync', '--since', 'all', '--now', NOW]);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { redacted: number; sessions: number };
    assert.equal(out.sessions, 5);
    assert.ok(out.redacted >= SECRET_SAMPLES.length * 5, `redacted ${out.redacted}`);
    assert.ok(
      entryIds(ws).length >= SECRET_SAMPLES.length,
      `the statements themselves are kept: ${entryIds(ws).length}`,
    );
    assert.deepEqual(leaked(workspaceText(ws)), []);
    assert.deepEqual(leaked(r.stdout + r.stderr), [], 'nor in what the command prints');
    const lint = await mem(['-C', ws, 'lint', '--secrets']);
    assert.equal(
      lint.code,
      0,
      `what memfold wrote passes its own secret check (the pre-commit hook):\n${lint.stdout}${lint.stderr}`,
    );
  });

  describe('LLM extractor', () => {
    let llm: OpenAIServer;
    before(async () => {
      llm = await startOpenAIServer();
      // A model that repeats every user turn it is shown, verbatim, as a Note.
      llm.chat.handler = (body: ChatRequestBody) => ({
        entries: promptTurns(body)
          .filter((t) => t.role === 'user')
          .map((t) =>
            wireEntry({
              title: t.text.slice(0, 100),
              conclusion: t.text,
              confidence: 0.9,
              first_turn: t.index,
              last_turn: t.index,
            }),
          )
          .slice(0, 50),
      });
    });
    after(() => llm.close());

    test('no secret is sent, and none lands even when the model echoes everything', async (t) => {
      const ws = secretWorkspace(t);
      editConfig(ws, (cfg) => (cfg.llm = { baseURL: llm.url, model: 'echo', maxCallsPerRun: 100, turnsPerCall: 40 }));
      const r = await mem(['-C', ws, 'microsync', '--since', 'all', '--now', NOW]);
      assert.equal(r.code, 0, r.stderr);
      assert.ok(llm.chat.requests.length >= 5);
      assert.deepEqual(leaked(llm.requests.map((q) => q.raw).join('\n')), []);
      assert.ok(entryIds(ws).length >= SECRET_SAMPLES.length, `${entryIds(ws).length} entries\n${r.stdout}${r.stderr}`);
      assert.deepEqual(leaked(workspaceText(ws)), []);
    });
  });
});

test("a token in a session id (header, front matter) or in a transcript's file name lands nowhere: not in sources, not in a wrap-up, not in the LLM prompt", async (t) => {
  const { openaiProj, slack, glpat } = SAMPLE_SECRETS;
  const root = tempDir(t);
  const ws = join(root, 'ws');
  mkdirSync(ws);
  writeFileSync(
    join(ws, 'mem.config.json'),
    JSON.stringify({
      format_version: 1,
      timezone: 'UTC',
      sources: [
        { name: 'j', kind: 'jsonl', path: '../t/j' },
        { name: 'm', kind: 'markdown', path: '../t/m' },
      ],
    }),
  );
  mkdirSync(join(root, 't', 'j'), { recursive: true });
  mkdirSync(join(root, 't', 'm'), { recursive: true });
  writeFileSync(
    join(root, 't', 'j', 'a.jsonl'),
    JSON.stringify({
      role: 'user',
      content: 'Remember this: the staging box is staging-2',
      timestamp: time(0),
      session_id: openaiProj,
    }) + '\n',
  );
  writeFileSync(
    join(root, 't', 'j', `${slack}.jsonl`),
    JSON.stringify({ role: 'user', content: 'Remember this: deploys go out at noon', timestamp: time(1) }) + '\n',
  );
  writeFileSync(
    join(root, 't', 'm', 'chat.md'),
    `---\nsession_id: ${glpat}\nstarted_at: ${time(2)}\n---\n\n## user · ${time(2)}\n\nRemember this: the cache TTL is 300 seconds.\n`,
  );
  const secrets = [openaiProj, slack, glpat];
  const found = (text: string) => secrets.filter((s) => text.includes(s));
  const sync = await mem(['-C', ws, 'microsync', '--since', 'all', '--now', NOW]);
  assert.equal(sync.code, 0, sync.stderr);
  assert.equal(entryIds(ws).length, 3, sync.stdout);
  const llm = await startOpenAIServer();
  t.after(() => llm.close());
  editConfig(ws, (cfg) => (cfg.llm = { baseURL: llm.url, model: 'echo' }));
  const wrap = await mem(['-C', ws, 'wrapup', '--date', '2026-11-21', '--now', NOW]);
  assert.equal(wrap.code, 0, wrap.stderr);
  assert.ok(llm.chat.requests.length >= 1, 'the wrap-up asked the model');
  assert.deepEqual(found(llm.requests.map((q) => q.raw).join('\n')), [], 'not sent to the LLM');
  const memory = [...snapshot(ws, (rel) => rel.startsWith('.mem/') || rel.includes('.locks')).values()].join('\n');
  assert.deepEqual(found(memory), [], 'not written to the memory files');
  // .mem/ (local, git-ignored, deletable) keys its cursors by the transcript's real path: that name alone.
  assert.deepEqual(found(workspaceText(ws)), [slack]);
  const lint = await mem(['-C', ws, 'lint', '--secrets']);
  assert.equal(lint.code, 0, `memfold's own files pass its secret check:\n${lint.stdout}${lint.stderr}`);
});

test('a password in escaped JSON inside a Claude Code Bash tool call (curl -d "{\\"password\\":…}") is not sent to the LLM nor written', async (t) => {
  const password = 'FakeCurlTool-4821x';
  const command = `curl -X POST https://api.example.test/login -H "Content-Type: application/json" -d "{\\"username\\":\\"admin\\",\\"password\\":\\"${password}\\"}"`;
  const root = tempDir(t);
  const ws = join(root, 'ws');
  mkdirSync(ws);
  mkdirSync(join(root, 't', 'proj'), { recursive: true });
  const sessionId = '0f0e0d0c-0000-4000-8000-000000000009';
  const line = (i: number, type: string, content: unknown) =>
    JSON.stringify({
      parentUuid: null,
      isSidechain: false,
      userType: 'external',
      cwd: '/home/dev/shop',
      sessionId,
      version: '1.0.98',
      type,
      message: { role: type, content },
      uuid: `u-${i}`,
      timestamp: time(i),
    });
  writeFileSync(
    join(root, 't', 'proj', `${sessionId}.jsonl`),
    [
      line(0, 'user', 'Remember this: staging logins go through the API, log in as admin'),
      line(1, 'assistant', [{ type: 'tool_use', id: 'tu1', name: 'Bash', input: { command, description: 'Log in' } }]),
      line(2, 'user', [{ type: 'tool_result', tool_use_id: 'tu1', content: '{"ok":true}' }]),
    ].join('\n') + '\n',
  );
  writeFileSync(
    join(ws, 'mem.config.json'),
    JSON.stringify({
      format_version: 1,
      timezone: 'UTC',
      sources: [{ name: 'cc', kind: 'claude-code', path: '../t' }],
    }),
  );
  const llm = await startOpenAIServer();
  t.after(() => llm.close());
  editConfig(ws, (cfg) => (cfg.llm = { baseURL: llm.url, model: 'echo' }));
  const r = await mem(['-C', ws, 'microsync', '--since', 'all', '--now', NOW]);
  assert.equal(r.code, 0, r.stderr);
  const sent = llm.requests.map((q) => q.raw).join('\n');
  assert.match(sent, /login -H/, 'the tool call was in the prompt');
  assert.ok(!sent.includes(password), 'not sent to the LLM');
  assert.match(
    sent,
    /password[\\"]+:[\\"]+\[REDACTED:password\][\\"]+}/,
    'its label and quotes stay around the marker',
  );
  assert.ok(!workspaceText(ws).includes(password), 'not written');
});
