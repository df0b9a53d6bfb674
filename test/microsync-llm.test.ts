/**
 * `mem microsync` with an LLM configured: the built CLI, the real `openai` client inside it, and a
 * real OpenAI-compatible server on 127.0.0.1 in this process (children are spawned asynchronously).
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { editConfig, entryIds, exampleWorkspace, mem, snapshot } from './helpers/cli.js';
import {
  promptTurns,
  reply,
  startOpenAIServer,
  wireEntry,
  type ChatRequestBody,
  type OpenAIServer,
} from './helpers/openai-server.js';

const NOW = '2026-11-22T09:00:00Z';
const SECRETS = ['sk-proj-', 'AKIA5A4WCHBDEVSPP0L9'];

let llm: OpenAIServer;
before(async () => {
  llm = await startOpenAIServer();
});
after(() => llm.close());
beforeEach(() => {
  llm.requests.length = 0;
  llm.chat.handler = decisionsOnly;
});

/** A stand-in model: every user turn saying "decided" or "决定" becomes a Decision. */
function decisionsOnly(body: ChatRequestBody) {
  const entries = promptTurns(body)
    .filter((t) => t.role === 'user' && /decided|决定/.test(t.text))
    .map((t) =>
      wireEntry({
        kind: 'Decision',
        title: `LLM: ${t.text.slice(0, 40)}`,
        conclusion: t.text.slice(0, 200),
        confidence: 0.8,
        first_turn: t.index,
        last_turn: t.index,
      }),
    );
  return { entries };
}

function llmWorkspace(t: Parameters<typeof exampleWorkspace>[0], llmCfg: Record<string, unknown> = {}) {
  const ex = exampleWorkspace(t);
  editConfig(
    ex.ws,
    (cfg) => (cfg.llm = { baseURL: llm.url, model: 'test-model', timeoutMs: 2000, maxRetries: 2, ...llmCfg }),
  );
  return ex;
}

const sentText = () => llm.chat.requests.map((r) => r.raw).join('\n');

describe('microsync with an LLM', () => {
  test('good output becomes entries citing their turns; no secret and no tool-only batch is sent', async (t) => {
    const { ws } = llmWorkspace(t);
    const r = await mem(['-C', ws, 'microsync', '--since', 'all', '--now', NOW]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /LLM: \d+ calls, \d+ tokens/);
    const ids = entryIds(ws);
    assert.ok(ids.length >= 3, ids.join('\n'));
    assert.ok(ids.every((id) => id.startsWith('DECISION-')));
    assert.ok(llm.chat.requests.length >= 5, 'one call per session at least');
    for (const s of SECRETS) assert.ok(!sentText().includes(s), `${s} must never reach the LLM`);
    assert.match(sentText(), /\[REDACTED/);
    const memory = [...snapshot(ws).values()].join('\n');
    for (const s of SECRETS) assert.ok(!memory.includes(s));
  });

  test("a rule a model writes around a credential's value is not written; a note holding it is, redacted", async (t) => {
    llm.chat.handler = (body: ChatRequestBody) => ({
      entries: promptTurns(body)
        .filter((x) => x.role === 'user' && x.text.includes('[REDACTED'))
        .flatMap((x) => [
          wireEntry({
            kind: 'Rule',
            title: `LLM rule ${x.index}`,
            conclusion: x.text.slice(0, 200),
            confidence: 0.8,
            first_turn: x.index,
            last_turn: x.index,
          }),
          wireEntry({
            kind: 'Note',
            title: `LLM note ${x.index}`,
            conclusion: x.text.slice(0, 200),
            confidence: 0.8,
            first_turn: x.index,
            last_turn: x.index,
          }),
        ]),
    });
    const { ws } = llmWorkspace(t);
    const r = await mem(['-C', ws, 'microsync', '--since', 'all', '--now', NOW]);
    assert.equal(r.code, 0, r.stderr);
    const memory = [...snapshot(ws).values()].join('\n');
    assert.match(memory, /LLM note \d+/);
    assert.doesNotMatch(memory, /LLM rule/);
    for (const s of SECRETS) assert.ok(!memory.includes(s));
  });

  test('invalid JSON is retried once, then the rule-based extractor reads the batch (nothing lost); the run still succeeds', async (t) => {
    const { ws } = llmWorkspace(t);
    llm.chat.handler = () => '{"entries": [ {"kind": "Decision", "title": ';
    const r = await mem(['-C', ws, 'microsync', '--since', 'all', '--source', 'notes', '--now', NOW]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(llm.chat.requests.length, 2);
    assert.match(
      r.stderr,
      /warning: no valid LLM answer for turns 1-8 of .*the reply is not JSON.*: the rule-based extractor read them instead/,
    );
    // "From now on, all API errors use RFC 7807 problem+json bodies." (turn 3), as the rules read it.
    assert.deepEqual(entryIds(ws), ['RULE-20261121-all-api-errors-use-rfc-7807-problem-json-bodies']);
  });

  test('HTTP 500 then success: retried, and the entries land', async (t) => {
    const { ws } = llmWorkspace(t);
    llm.chat.enqueue(reply.status(500));
    const r = await mem(['-C', ws, 'microsync', '--since', 'all', '--source', 'codex', '--now', NOW]);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(llm.chat.requests.length >= 3);
    assert.ok(
      entryIds(ws).some((id) => id.includes('pnpm')),
      entryIds(ws).join('\n'),
    );
  });

  test('a timeout past the retries: one line, exit 1, nothing written, cursors not advanced', async (t) => {
    const { ws } = llmWorkspace(t, { timeoutMs: 300, maxRetries: 1 });
    llm.chat.enqueue(reply.delay(2000, reply.json({ entries: [] })), reply.delay(2000, reply.json({ entries: [] })));
    const r = await mem(['-C', ws, 'microsync', '--source', 'notes', '--now', '2026-11-21T20:00:00Z']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^mem: [^\n]*(timed out|timeout)[^\n]*\n$/i);
    const derived = [...snapshot(ws, (rel) => rel.includes('.locks')).keys()].filter((f) => f.startsWith('.mem/'));
    assert.deepEqual(derived, ['.mem/logs/jobs.jsonl'], 'no cursors saved: only the job log records the failed run');
    assert.deepEqual(entryIds(ws), []);
  });

  test('the call budget stops a back-fill cleanly and the next runs resume where it stopped', async (t) => {
    const { ws } = llmWorkspace(t, { maxCallsPerRun: 2 });
    const args = ['-C', ws, '--json', 'microsync', '--now', '2026-11-21T23:59:00Z'];
    const calls: number[] = [];
    for (let i = 0; i < 6; i++) {
      const r = await mem(args);
      assert.equal(r.code, 0, r.stderr);
      const out = JSON.parse(r.stdout) as { llm: { calls: number; stoppedByBudget: boolean } };
      calls.push(out.llm.calls);
      assert.ok(out.llm.calls <= 2);
      if (!out.llm.stoppedByBudget) break;
    }
    assert.ok(calls.length >= 2, `the budget must have stopped the first run: ${calls.join(',')}`);
    const total = llm.chat.requests.length;
    // Everything read once: the same day's entries as a run without a budget.
    const free = llmWorkspace(t);
    llm.requests.length = 0;
    await mem(['-C', free.ws, 'microsync', '--now', '2026-11-21T23:59:00Z']);
    assert.deepEqual(entryIds(ws), entryIds(free.ws));
    assert.equal(total, llm.chat.requests.length, 'no batch sent twice');
  });

  test('--dry-run estimates calls and tokens without any request; --no-llm uses the rules', async (t) => {
    const { ws } = llmWorkspace(t);
    const dry = await mem(['-C', ws, 'microsync', '--since', 'all', '--dry-run', '--now', NOW]);
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /LLM: would use ~\d+ calls, ~\d+ tokens/);
    assert.equal(llm.requests.length, 0);
    const offline = await mem(['-C', ws, 'microsync', '--since', 'all', '--no-llm', '--now', NOW]);
    assert.equal(offline.code, 0, offline.stderr);
    assert.equal(llm.requests.length, 0);
    assert.equal(entryIds(ws).length, 9);
  });

  test('hostile output is refused safely: 10,000 entries, path-like titles, keys and scopes', async (t) => {
    // A token budget large enough that the flood is judged by the validator, not stopped by the budget.
    const { ws, root } = llmWorkspace(t, { maxTokensPerRun: 100_000_000 });
    const wire = (over: Record<string, unknown>) =>
      wireEntry({ confidence: 0.9, first_turn: 3, last_turn: 3, ...over });
    llm.chat.enqueue(
      reply.json({ entries: Array.from({ length: 10_000 }, () => wire({})) }),
      reply.json({ entries: Array.from({ length: 10_000 }, () => wire({})) }),
    );
    const flood = await mem(['-C', ws, 'microsync', '--since', 'all', '--source', 'notes', '--now', NOW]);
    assert.equal(flood.code, 0, flood.stderr);
    assert.match(
      flood.stderr,
      /warning: no valid LLM answer for turns .*entries: Too big.*: the rule-based extractor read them instead/,
    );
    assert.deepEqual(
      entryIds(ws),
      ['RULE-20261121-all-api-errors-use-rfc-7807-problem-json-bodies'],
      'the rules read the batch; nothing of the flood',
    );

    // Each conclusion is a user turn's words, so the entries pass the grounding check and reach the writer.
    llm.chat.handler = (body) => {
      const said = promptTurns(body).find((x) => x.role === 'user')!;
      const at = { conclusion: said.text, first_turn: said.index, last_turn: said.index };
      return {
        entries: [
          wire({ title: '../../../../etc/cron.d/pwn', key: '../../x', scope: '/etc/passwd', ...at }),
          wire({ title: 'MEMORY.md\u0000', supersedes_hint: '../../MEMORY', ...at }),
          wire({ title: 'x'.repeat(120), ...at }),
        ],
      };
    };
    const r = await mem(['-C', ws, 'microsync', '--since', 'all', '--source', 'codex', '--now', NOW]);
    assert.equal(r.code, 0, r.stderr);
    const written = [...snapshot(root, (rel) => rel.includes('.locks')).keys()];
    assert.ok(
      written.every((f) => f.startsWith('workspace/') || f.startsWith('transcripts/')),
      written.join('\n'),
    );
    assert.ok(
      written
        .filter((f) => f.startsWith('workspace/memory/'))
        .every((f) => /^workspace\/memory\/(\d{4}-\d{2}-\d{2}\.md|(recent|projects|archive)\/\.gitkeep)$/.test(f)),
      written.join('\n'),
    );
    const hostile = entryIds(ws).filter((id) => !id.startsWith('RULE-20261121-all-api-errors'));
    assert.ok(
      hostile.every((id) => /^NOTE-\d{8}-[\p{L}\p{N}-]{1,60}$/u.test(id)),
      hostile.join('\n'),
    );
    assert.ok(hostile.length > 0, 'the hostile entries reached the writer');
    assert.match(r.stderr, /key "\.\.\/\.\.\/x" ignored/);
  });
});
