/**
 * The microsync catch-up of wrapup and compound, and `--since` re-reads, with an LLM configured (a
 * real OpenAI-compatible server on 127.0.0.1): turns a run already processed are never sent again —
 * a model could word them anew as a second entry — and a re-read the budget stops early never moves
 * a cursor back.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { editConfig, entryIds, exampleWorkspace, mem } from './helpers/cli.js';
import { promptTurns, startOpenAIServer, wireEntry, type ChatRequestBody } from './helpers/openai-server.js';

const entryCalls = (reqs: { body: ChatRequestBody }[]) =>
  reqs.filter((q) => q.body.response_format?.json_schema?.name === 'memfold_entries').length;

/** A stand-in model that words each decision differently on every call (as a real one may). */
function wording() {
  let call = 0;
  return (body: ChatRequestBody) => {
    call++;
    const entries = promptTurns(body)
      .filter((t) => t.role === 'user' && /decided/.test(t.text))
      .map((t) =>
        wireEntry({
          kind: 'Decision',
          title: `Wording ${call}: ${t.text.slice(0, 30)}`,
          conclusion: t.text.slice(0, 200),
          confidence: 0.8,
          first_turn: t.index,
          last_turn: t.index,
        }),
      );
    return body.response_format?.json_schema?.name === 'memfold_entries' ? { entries } : undefined;
  };
}

test('wrapup and compound catch up from the cursors: what microsync read is not sent to the LLM again', async (t) => {
  const llm = await startOpenAIServer();
  t.after(() => llm.close());
  const { ws } = exampleWorkspace(t);
  editConfig(ws, (cfg) => (cfg.llm = { baseURL: llm.url, model: 'test-model', maxRetries: 0, timeoutMs: 10_000 }));
  llm.chat.handler = wording();
  const run = await mem(['-C', ws, 'microsync', '--now', '2026-11-21T23:59:00Z']);
  assert.equal(run.code, 0, run.stderr);
  const ids = entryIds(ws);
  assert.ok(ids.length > 0, 'the model found decisions');
  const sent = entryCalls(llm.chat.requests);
  for (const job of [['wrapup', '--date', '2026-11-21'], ['compound']]) {
    const r = await mem(['-C', ws, '--now', '2026-11-22T00:30:00Z', ...job]);
    assert.equal(r.code, 0, r.stderr);
  }
  assert.equal(entryCalls(llm.chat.requests), sent, 'no turn microsync read was sent again');
  assert.deepEqual(entryIds(ws), ids, 'no decision written twice in other words');
});

test('a --since re-read that the call budget stops never moves a cursor back', async (t) => {
  const llm = await startOpenAIServer();
  t.after(() => llm.close());
  const { ws } = exampleWorkspace(t);
  editConfig(ws, (cfg) => (cfg.llm = { baseURL: llm.url, model: 'test-model', maxRetries: 0, timeoutMs: 10_000 }));
  llm.chat.handler = () => ({ entries: [] });
  const now = ['--now', '2026-11-21T23:59:00Z'];
  assert.equal((await mem(['-C', ws, 'microsync', '--since', 'all', ...now])).code, 0);
  const offsets = () =>
    Object.fromEntries(
      Object.entries(
        JSON.parse(readFileSync(join(ws, '.mem', 'cursors.json'), 'utf8')) as Record<string, { offset: number }>,
      ).map(([f, c]) => [f, c.offset]),
    );
  const before = offsets();
  editConfig(ws, (cfg) => (cfg.llm = { ...(cfg.llm as object), maxCallsPerRun: 1 }));
  const again = await mem(['-C', ws, '--json', 'microsync', '--since', 'all', ...now]);
  assert.equal(again.code, 0, again.stderr);
  assert.equal(JSON.parse(again.stdout).llm.stoppedByBudget, true);
  assert.deepEqual(offsets(), before);
  const calls = llm.chat.requests.length;
  assert.equal((await mem(['-C', ws, 'microsync', ...now])).code, 0);
  assert.equal(llm.chat.requests.length, calls, 'the next scheduled run has nothing to send');
});
