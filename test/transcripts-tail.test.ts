/**
 * Where a microsync read may stop and what it may trust, end to end (the built CLI on temp
 * workspaces): a budget stop inside one JSONL line keeps message numbers exact.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { dailyText, editConfig, exampleWorkspace, memOk } from './helpers/cli.js';
import { promptTurns, startOpenAIServer, type ChatRequestBody, type OpenAIServer } from './helpers/openai-server.js';

/** The bundled example workspace reading only `<root>/live` as `kind`. */
function liveWorkspace(t: Parameters<typeof exampleWorkspace>[0], kind: string) {
  const { root, ws } = exampleWorkspace(t);
  const live = join(root, 'live');
  mkdirSync(live);
  editConfig(ws, (cfg) => {
    cfg.sources = [{ name: 'live', kind, path: '../live' }];
  });
  return { ws, live };
}

const json = <T>(r: { stdout: string }) => JSON.parse(r.stdout) as T;
/** Each entry's id and message_range, as written. */
const ranges = (ws: string) => [...dailyText(ws).matchAll(/^- id: (\S+)\n(?:.*\n)*?  - message_range: (\S+)$/gm)].map((m) => `${m[1]} ${m[2]}`).sort();

let llm: OpenAIServer;
before(async () => {
  llm = await startOpenAIServer();
  // A stand-in model: every user turn saying "decided" is a Decision citing that turn alone.
  llm.chat.handler = (body: ChatRequestBody) => ({
    entries: promptTurns(body).filter((x) => x.role === 'user' && x.text.includes('decided')).map((x) => ({
      kind: 'Decision', title: x.text.slice(0, 60), conclusion: x.text, why: null, finding: null, impact: null, confidence: 0.8, origin: 'user',
      key: null, scope: null, refs: null, revises: false, supersedes_hint: null, first_turn: x.index, last_turn: x.index,
    })),
  });
});
after(() => llm.close());

const claudeLine = (content: unknown, time: string) => JSON.stringify({
  type: 'user', sessionId: 'budget-1', isSidechain: false, timestamp: `2026-11-20T${time}Z`, message: { role: 'user', content },
});
/** One line, three turns: a user text, a tool result, a user text. */
const threeTurns = (a: string, b: string, time: string) => claudeLine([{ type: 'text', text: a }, { type: 'tool_result', tool_use_id: 'gone', content: 'ok' }, { type: 'text', text: b }], time);

/**
 * Each entry's id and message_range after one run without a budget, and after runs of at most
 * `maxCallsPerRun` calls until one is not stopped (the first must be).
 */
async function wholeAndSplit(t: Parameters<typeof exampleWorkspace>[0], lines: string[], llmCfg: { turnsPerCall: number; maxCallsPerRun: number }) {
  const setup = (maxCallsPerRun: number) => {
    const { ws, live } = liveWorkspace(t, 'claude-code');
    writeFileSync(join(live, 'budget-1.jsonl'), lines.join('\n') + '\n');
    editConfig(ws, (cfg) => (cfg.llm = { baseURL: llm.url, model: 'test-model', turnsPerCall: llmCfg.turnsPerCall, maxCallsPerRun }));
    return ws;
  };
  const run = async (ws: string) => json<{ llm: { stoppedByBudget: boolean } }>(await memOk(['-C', ws, '--json', 'microsync', '--now', '2026-11-20T10:00:00Z'])).llm.stoppedByBudget;
  const whole = setup(1000);
  assert.equal(await run(whole), false);
  const split = setup(llmCfg.maxCallsPerRun);
  assert.equal(await run(split), true, 'the budget stopped the first run');
  for (let more = 0; more < 5 && (await run(split)); more++);
  return { whole: ranges(whole), split: ranges(split) };
}

test('a budget stop between two turns of one JSONL line: later message ranges are those of an uninterrupted run', async (t) => {
  // Turns 1 | 2 3 4 | 5; two calls a run send turns 1 and 2, turn 3 is a tool's, and the budget stops before turn 4.
  const lines = [
    claudeLine('We decided to keep the event store in PostgreSQL.', '09:00:01'),
    threeTurns('We decided to cap uploads at 25 MB.', 'We decided that every migration gets a rollback script.', '09:00:02'),
    claudeLine('We decided to use pnpm workspaces.', '09:00:03'),
  ];
  const { whole, split } = await wholeAndSplit(t, lines, { turnsPerCall: 1, maxCallsPerRun: 2 });
  assert.equal(whole.length, 4, whole.join('\n'));
  assert.deepEqual(split, whole);
});

test('a line whose turns straddle a full batch of turns is never split by the cursor either', async (t) => {
  // Turns 1-499 | 500 501 502 | 503: a batch of 500 would end inside the line, and one call a run
  // would stop before turn 501.
  const filler = Array.from({ length: 499 }, (_, i) => claudeLine(`chit chat, line ${i}`, '09:00:00'));
  const lines = [...filler, threeTurns('We decided to cap uploads at 25 MB.', 'We decided to use pnpm workspaces.', '09:00:02'), claudeLine('We decided to keep the event store in PostgreSQL.', '09:00:03')];
  const { whole, split } = await wholeAndSplit(t, lines, { turnsPerCall: 1000, maxCallsPerRun: 1 });
  assert.equal(whole.length, 3, whole.join('\n'));
  assert.deepEqual(split, whole);
});
