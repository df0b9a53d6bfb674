/**
 * Codex rollouts write a message's words once or twice: a response item, its event_msg copy, or (Codex
 * Desktop) only the event. Every message is one turn whichever copies exist and in whichever order,
 * injected context stays harness text, resumed reads at any cut give what a full read gives, and a
 * Desktop rollout's decision reaches memory through the built CLI.
 */
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { test } from 'node:test';
import { dailyText, editConfig, entryIds, mem, transcriptWorkspace } from './helpers/cli.js';
import { collect, jsonl, put, tempDir } from './helpers/transcripts-tmp.js';
import { openTranscript, type Turn } from '../src/transcripts/index.js';

const at = (s: number) => `2026-11-24T09:00:${String(s).padStart(2, '0')}.000Z`;
const meta = (cwd = '/home/dev/ledgerline') => ({
  timestamp: at(0),
  type: 'session_meta',
  payload: {
    id: 'desk-1',
    timestamp: at(0),
    cwd,
    originator: 'Codex Desktop',
    cli_version: '0.63.0',
    source: 'vscode',
  },
});
const item = (s: number, role: string, text: string) => ({
  timestamp: at(s),
  type: 'response_item',
  payload: { type: 'message', role, content: [{ type: role === 'assistant' ? 'output_text' : 'input_text', text }] },
});
const userEvent = (s: number, message: string, extra: object = {}) => ({
  timestamp: at(s),
  type: 'event_msg',
  payload: { type: 'user_message', message, images: [], ...extra },
});
const agentEvent = (s: number, message: string) => ({
  timestamp: at(s),
  type: 'event_msg',
  payload: { type: 'agent_message', message },
});
const tokens = (s: number) => ({ timestamp: at(s), type: 'event_msg', payload: { type: 'token_count', info: null } });
const context = (s: number, cwd: string) => ({
  timestamp: at(s),
  type: 'turn_context',
  payload: { cwd, approval_policy: 'on-request', model: 'gpt-5-codex' },
});

const DECISION = 'We decided to keep the ledger in PostgreSQL; SQLite locked under concurrent writers.';
const RULE = 'From now on, every migration needs a rollback script.';

const said = (turns: Turn[]) => turns.map((t) => `${t.role}${t.meta ? '/meta' : ''}: ${t.text}`);

/** A Desktop rollout: the person's and the agent's words only as events. */
function desktopRollout() {
  return jsonl(
    meta(),
    userEvent(1, '<environment_context>\n  <cwd>/home/dev/ledgerline</cwd>\n</environment_context>', {
      kind: 'environment_context',
    }),
    context(2, '/home/dev/ledgerline'),
    userEvent(3, DECISION),
    tokens(4),
    agentEvent(5, 'Noted. Shall I also drop the SQLite adapter?'),
    userEvent(6, 'Yes, agreed.'),
    agentEvent(7, 'Done.'),
    context(8, '/home/dev/ledgerline/services/api'),
    userEvent(9, RULE),
  );
}

test('a Codex Desktop rollout whose words exist only as event_msg lines gives every user and agent turn', async (t) => {
  const path = put(tempDir(t), 'rollout-2026-11-24T09-00-00-desk-1.jsonl', desktopRollout());
  const turns = await collect(openTranscript(path, 'codex'));
  assert.deepEqual(said(turns), [
    'system/meta: <environment_context>\n  <cwd>/home/dev/ledgerline</cwd>\n</environment_context>',
    `user: ${DECISION}`,
    'assistant: Noted. Shall I also drop the SQLite adapter?',
    'user: Yes, agreed.',
    'assistant: Done.',
    `user: ${RULE}`,
  ]);
  assert.deepEqual(
    turns.map((x) => x.timestamp),
    [1, 3, 5, 6, 7, 9].map(at),
  );
  assert.deepEqual(
    turns.map((x) => x.cwd),
    [...Array(5).fill('/home/dev/ledgerline'), '/home/dev/ledgerline/services/api'],
    'turn_context moves the folder for the turns after it',
  );
});

test('newer rollouts write an item and its event copy, in either order: each message is one turn', async (t) => {
  const dir = tempDir(t);
  const itemFirst = put(
    dir,
    'rollout-a.jsonl',
    jsonl(
      meta(),
      item(1, 'user', '<user_instructions>\nKeep diffs small.\n</user_instructions>'),
      userEvent(1, '<user_instructions>\nKeep diffs small.\n</user_instructions>', { kind: 'user_instructions' }),
      item(2, 'user', DECISION),
      userEvent(2, DECISION),
      item(3, 'assistant', 'Noted.'),
      agentEvent(3, 'Noted.'),
      item(4, 'user', 'Yes, agreed.'),
      userEvent(4, 'Yes, agreed.'),
      item(5, 'user', 'Yes, agreed.'),
      userEvent(5, 'Yes, agreed.'),
    ),
  );
  const eventFirst = put(
    dir,
    'rollout-b.jsonl',
    jsonl(
      meta(),
      userEvent(2, DECISION),
      item(2, 'user', DECISION),
      agentEvent(3, 'Noted.'),
      tokens(3),
      item(3, 'assistant', 'Noted.'),
      userEvent(4, 'Yes, agreed.'),
      item(4, 'user', 'Yes, agreed.'),
      userEvent(5, 'Yes, agreed.'),
      item(5, 'user', 'Yes, agreed.'),
    ),
  );
  const expected = [`user: ${DECISION}`, 'assistant: Noted.', 'user: Yes, agreed.', 'user: Yes, agreed.'];
  assert.deepEqual(said(await collect(openTranscript(itemFirst, 'codex'))), [
    'system/meta: <user_instructions>\nKeep diffs small.\n</user_instructions>',
    ...expected,
  ]);
  assert.deepEqual(
    said(await collect(openTranscript(eventFirst, 'codex'))),
    expected,
    'a message said twice stays two turns',
  );
});

test("an item that wraps the event's words (an IDE's context before the request) is the same message", async (t) => {
  const wrapped = `# Context from my IDE setup:\n\n## Active file: src/db.ts\n\n## My request for Codex:\n${DECISION}`;
  const path = put(
    tempDir(t),
    'rollout-ide.jsonl',
    jsonl(
      meta(),
      userEvent(1, DECISION),
      item(1, 'user', wrapped),
      item(2, 'user', 'Thanks.'),
      userEvent(2, 'Thanks.'),
    ),
  );
  assert.deepEqual(said(await collect(openTranscript(path, 'codex'))), [`user: ${DECISION}`, 'user: Thanks.']);
});

test("a resumed read at every cut, with the cursor's tool names, gives exactly the rest of a full read", async (t) => {
  const dir = tempDir(t);
  const call = {
    timestamp: at(10),
    type: 'response_item',
    payload: { type: 'function_call', name: 'shell', arguments: '{"command":["ls"]}', call_id: 'c1' },
  };
  const output = {
    timestamp: at(11),
    type: 'response_item',
    payload: { type: 'function_call_output', call_id: 'c1', output: 'src\n' },
  };
  const files = {
    'rollout-events.jsonl': desktopRollout(),
    'rollout-pairs.jsonl': jsonl(
      meta(),
      item(1, 'user', DECISION),
      userEvent(1, DECISION),
      call,
      agentEvent(12, 'Listed.'),
      output,
      item(12, 'assistant', 'Listed.'),
      context(13, '/srv/other'),
      userEvent(14, RULE),
      item(14, 'user', RULE),
    ),
  };
  for (const [name, body] of Object.entries(files)) {
    const path = put(dir, name, body);
    const all = await collect(openTranscript(path, 'codex'));
    for (const cut of all) {
      const first = openTranscript(path, 'codex');
      for await (const turn of first.turns) if (turn.index === cut.index) break;
      const resumed = openTranscript(path, 'codex', {
        fromOffset: cut.endOffset,
        fromIndex: cut.index,
        toolNames: first.stats.pendingTools ?? {},
      });
      assert.deepEqual(await collect(resumed), all.slice(cut.index), `${name} resumed after turn ${cut.index}`);
      assert.equal(resumed.stats.bytesRead, statSync(path).size - cut.endOffset);
    }
  }
});

test("microsync --since all: a Desktop rollout's decision and rule land, once each, and a second run adds nothing", async (t) => {
  const { ws, tr } = await transcriptWorkspace(t, 'jsonl');
  editConfig(ws, (cfg) => (cfg.sources = [{ name: 'codex', kind: 'codex', path: '../tr' }]));
  put(tr, '2026/11/24/rollout-2026-11-24T09-00-00-desk-1.jsonl', desktopRollout());
  const run = () =>
    mem(['-C', ws, '--json', 'microsync', '--since', 'all', '--no-llm', '--now', '2026-11-24T12:00:00Z']);
  const first = await run();
  assert.equal(first.code, 0, first.stderr);
  const ids = entryIds(ws);
  assert.ok(
    ids.some((id) => id.startsWith('DECISION-20261124-')),
    ids.join(', '),
  );
  assert.ok(
    ids.some((id) => id.startsWith('RULE-20261124-')),
    ids.join(', '),
  );
  assert.equal(
    dailyText(ws).match(/^## Decision: Keep the ledger in PostgreSQL/gm)?.length,
    1,
    'the decision is written once',
  );
  assert.match(dailyText(ws), /message_range: 2-2/, 'cited by its turn, the harness context counted before it');
  const second = await run();
  assert.equal(second.code, 0, second.stderr);
  assert.deepEqual(entryIds(ws), ids);
});
