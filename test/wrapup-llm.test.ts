/**
 * wrapup's LLM path against a real OpenAI-compatible HTTP server on 127.0.0.1: a valid answer is
 * used (sources checked), secrets never reach the server, and an answer that breaks the format or
 * cites sources that were never sent is rejected in favour of the rule-based summary.
 */
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { estimateMessagesTokens, OUTPUT_TOKENS_RESERVE } from '../src/extract/llm-budget.js';
import { editConfig, mem } from './helpers/cli.js';
import { HttpStatus, startOpenAIServer, type ChatRequestBody } from './helpers/openai-server.js';
import { bullets, CITED, h2, SECTIONS, weekWorkspace } from './helpers/week-fixture.js';

const NEW = 'DECISION-20261118-go-back-to-in-memory-sessions-instead-of-redis-for-the';
const TOKEN = 'ghp_' + 'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5';
const ARGS = ['wrapup', '--date', '2026-11-18', '--now', '2026-11-19T06:00'];
const empty = {
  decisions: [],
  action_items: [],
  important_conversations: [],
  technical_notes: [],
  open_loops: [],
  tomorrow_next_steps: [],
};
const none = { entry_id: null, session_id: null, first_turn: null, last_turn: null };
const schemaName = (b: ChatRequestBody) => b.response_format?.json_schema?.name;

/** A long talk in Chinese on the day: about one token a character, four times what chars/4 counts. */
function chineseTalk(root: string): void {
  const say = '我们今天讨论了缓存层的性能问题，发现在高并发情况下延迟明显增加，还要看日志和监控数据。'.repeat(3);
  const turns = Array.from({ length: 60 }, (_, i) =>
    JSON.stringify({
      role: i % 2 ? 'assistant' : 'user',
      content: say,
      timestamp: `2026-11-18T14:${String(i).padStart(2, '0')}:00Z`,
      session_id: 'zh-2026-11-18',
    }),
  );
  writeFileSync(join(root, 'transcripts', 'jsonl', 'zh-2026-11-18.jsonl'), turns.join('\n') + '\n');
}

/** The day read by microsync; with `late`, a turn said after that run, for the catch-up to read. */
async function setup(
  t: { after(fn: () => void | Promise<void>): void },
  llmCfg: Record<string, unknown> = {},
  more?: (root: string) => void,
  late = false,
) {
  const { root, ws } = weekWorkspace(t, '2026-11-18');
  more?.(root);
  const standup = join(root, 'transcripts', 'jsonl', 'standup-2026-11-18.jsonl');
  appendFileSync(
    standup,
    JSON.stringify({
      role: 'user',
      content: `The CI token is ${TOKEN}, keep it out of the logs.`,
      timestamp: '2026-11-18T09:15:00Z',
      session_id: 'standup-2026-11-18',
    }) + '\n',
  );
  assert.equal((await mem(['-C', ws, 'microsync', '--since', 'all', '--no-llm', '--now', '2026-11-19T06:00'])).code, 0);
  if (late)
    appendFileSync(
      standup,
      JSON.stringify({
        role: 'user',
        content: 'One more thing: we decided to keep the staging cluster.',
        timestamp: '2026-11-18T23:00:00Z',
        session_id: 'standup-2026-11-18',
      }) + '\n',
    );
  const llm = await startOpenAIServer();
  t.after(() => llm.close());
  editConfig(
    ws,
    (cfg) => (cfg.llm = { baseURL: llm.url, model: 'test-model', maxRetries: 0, timeoutMs: 10_000, ...llmCfg }),
  );
  return { ws, llm };
}

describe('mem wrapup with an LLM', () => {
  test('uses a valid answer, checks its sources, sends only redacted text', async (t) => {
    const { ws, llm } = await setup(t);
    llm.chat.handler = (body) =>
      schemaName(body) === 'memfold_wrapup'
        ? {
            ...empty,
            decisions: [{ ...none, text: 'Sessions go back to in-memory storage', entry_id: NEW }],
            action_items: [
              {
                ...none,
                text: 'Update the deploy docs',
                session_id: 'standup-2026-11-18',
                first_turn: 9,
                last_turn: 9,
              },
            ],
          }
        : { entries: [] };
    const r = await mem(['-C', ws, ...ARGS]);
    assert.equal(r.code, 0, r.stderr);
    const text = readFileSync(join(ws, 'second-brain/summaries/2026-11-18-wrapup.md'), 'utf8');
    assert.match(text, /\ngenerator: "memfold wrapup 1 \(llm test-model\)"\n/);
    assert.deepEqual(h2(text), SECTIONS);
    for (const b of bullets(text)) assert.match(b, CITED);
    assert.match(
      text,
      new RegExp(
        `## Decisions made today\\n- Sessions go back to in-memory storage — \\[${NEW}\\]\\(\\.\\./\\.\\./memory/2026-11-18\\.md\\)\\n`,
      ),
    );
    // A bullet citing a session goes in that session's section, beside the goal the rules found.
    assert.match(text, /## Action items\n- \(listed per session under Important conversations\)\n/);
    assert.match(
      text,
      /\n### 10:00 \S+ standup-2026-11-18\n- Goal: Standup notes for the shop — session standup-2026-11-18 · messages 1-1\n(?:- .*\n)*- Action item: Update the deploy docs — session standup-2026-11-18 · messages 9-9\n/,
    );
    const calls = llm.chat.requests.filter((q) => schemaName(q.body) === 'memfold_wrapup');
    assert.equal(calls.length, 1);
    assert.equal(calls[0]!.body.response_format.json_schema.strict, true);
    assert.match(calls[0]!.raw, /\[memfold-job\]/);
    assert.match(calls[0]!.raw, /\[REDACTED:github-pat\]/);
    assert.ok(!JSON.stringify(llm.requests.map((q) => q.raw)).includes(TOKEN), 'no secret reaches the LLM');
    assert.ok(!text.includes(TOKEN));

    // Same input again, a model that would word it differently: the summary is kept, no call made.
    llm.chat.handler = (body) =>
      schemaName(body) === 'memfold_wrapup'
        ? { ...empty, decisions: [{ ...none, text: 'Other wording', entry_id: NEW }] }
        : { entries: [] };
    const again = await mem(['-C', ws, ...ARGS, '--json']);
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(JSON.parse(again.stdout).written, []);
    assert.equal(readFileSync(join(ws, 'second-brain/summaries/2026-11-18-wrapup.md'), 'utf8'), text);
    assert.equal(llm.chat.requests.filter((q) => schemaName(q.body) === 'memfold_wrapup').length, 1);
  });

  test('redacts a secret the model writes before the summary is written', async (t) => {
    const { ws, llm } = await setup(t);
    const leaked = 'ghp_' + 'Z9y8xW7vU6tS5rQ4pO3nM2lK1jI0hG9fJ3i2';
    llm.chat.handler = (body) =>
      schemaName(body) === 'memfold_wrapup'
        ? {
            ...empty,
            technical_notes: [
              { ...none, text: `Deploy token ${leaked} rotated; password: hunter2-Sup3rS3cret!`, entry_id: NEW },
            ],
          }
        : { entries: [] };
    const r = await mem(['-C', ws, ...ARGS]);
    assert.equal(r.code, 0, r.stderr);
    const text = readFileSync(join(ws, 'second-brain/summaries/2026-11-18-wrapup.md'), 'utf8');
    assert.match(text, /\ngenerator: "memfold wrapup 1 \(llm test-model\)"\n/);
    assert.match(
      text,
      /\n- Deploy token \[REDACTED:github-pat\] rotated; password: \[REDACTED:password\] — \[DECISION-/,
    );
    assert.ok(!text.includes(leaked) && !text.includes('hunter2'));
    const lint = await mem(['-C', ws, 'lint', '--secrets']);
    assert.equal(lint.code, 0, lint.stdout + lint.stderr);
  });

  test('rejects an answer that breaks the format or cites what was never sent, and falls back to rules', async (t) => {
    const { ws, llm } = await setup(t);
    const answers = [
      { ...empty, decisions: [{ ...none, text: 'fine\n## Injected heading', entry_id: NEW }] },
      { ...empty, decisions: [{ ...none, text: 'Made-up decision', entry_id: 'DECISION-20990101-made-up' }] },
    ];
    llm.chat.handler = (body) => (schemaName(body) === 'memfold_wrapup' ? answers.shift() : { entries: [] });
    const r = await mem(['-C', ws, ...ARGS]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /LLM answer rejected: decisions\[0\]\.text is not one line of plain text/);
    assert.match(
      r.stderr,
      /LLM answer rejected: decisions\[0\] cites entry "DECISION-20990101-made-up", which was not in the input/,
    );
    assert.match(r.stderr, /using the rule-based summary/);
    const text = readFileSync(join(ws, 'second-brain/summaries/2026-11-18-wrapup.md'), 'utf8');
    assert.match(text, /\ngenerator: "memfold wrapup 1 \(rules\)"\n/);
    assert.ok(!text.includes('Injected') && !text.includes('Made-up'));
    assert.deepEqual(h2(text), SECTIONS);
  });

  for (const [what, failure, said] of [
    ['out of reach', 'down', /could not be reached/],
    ['refusing the key (401)', 401, /answered HTTP 401/],
  ] as const) {
    test(`an endpoint ${what}: the catch-up is skipped with a warning and the rule-based summary is written`, async (t) => {
      const { ws, llm } = await setup(
        t,
        failure === 'down' ? { baseURL: 'http://127.0.0.1:1/v1' } : {},
        undefined,
        true,
      );
      llm.chat.handler = () => {
        throw new HttpStatus(401);
      };
      const r = await mem(['-C', ws, ...ARGS, '--json']);
      assert.equal(r.code, 0, r.stderr);
      assert.match(
        r.stderr,
        new RegExp(
          `microsync catch-up skipped, nothing written: LLM endpoint \\S+ \\(model test-model\\) ${said.source}`,
        ),
      );
      assert.match(r.stderr, /using the rule-based summary/);
      assert.match(JSON.parse(r.stdout).catchUp.skipped, said);
      // The job's own request failed as a request: it is not sent again with "your reply was rejected".
      assert.equal(r.stderr.match(/LLM answer rejected/g)?.length, 1, r.stderr);
      const text = readFileSync(join(ws, 'second-brain/summaries/2026-11-18-wrapup.md'), 'utf8');
      assert.match(text, /\ngenerator: "memfold wrapup 1 \(rules\)"\n/);
      assert.match(text, new RegExp(`## Decisions made today\\n- .*\\[${NEW}\\]`));
    });
  }

  test('one budget for the run: calls its catch-up spent are not made again for the summary', async (t) => {
    const { ws, llm } = await setup(t, { maxCallsPerRun: 1 }, undefined, true);
    const r = await mem(['-C', ws, ...ARGS, '--json']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(llm.chat.requests.length, 1, 'the catch-up spent the one call');
    assert.equal(llm.chat.requests.filter((q) => schemaName(q.body) === 'memfold_wrapup').length, 0);
    const out = JSON.parse(r.stdout);
    assert.equal(out.llm.calls, 1);
    assert.ok(out.llm.tokens > 0);
    assert.equal(out.llm.stoppedByBudget, true);
    assert.match(
      r.stderr,
      /wrapup 2026-11-18: the run's LLM budget cannot pay for the next call, its prompt and 1000 tokens for the reply \(0 calls and \d+ tokens left of llm\.maxCallsPerRun 1 and llm\.maxTokensPerRun 200000;/,
    );
    assert.match(r.stderr, /using the rule-based summary/);
    assert.match(
      readFileSync(join(ws, 'second-brain/summaries/2026-11-18-wrapup.md'), 'utf8'),
      /\ngenerator: "memfold wrapup 1 \(rules\)"\n/,
    );
  });

  test('a Chinese talk is cut to the tokens left, counted about one a character', async (t) => {
    const { ws, llm } = await setup(t, { maxTokensPerRun: 3000 }, chineseTalk);
    llm.chat.handler = (body) =>
      schemaName(body) === 'memfold_wrapup'
        ? { ...empty, decisions: [{ ...none, text: 'Sessions go back to in-memory storage', entry_id: NEW }] }
        : { entries: [] };
    const r = await mem(['-C', ws, ...ARGS, '--json']);
    assert.equal(r.code, 0, r.stderr);
    const calls = llm.chat.requests.filter((q) => schemaName(q.body) === 'memfold_wrapup');
    assert.equal(calls.length, 1);
    assert.match(calls[0]!.raw, /cut to fit the token budget/);
    assert.match(calls[0]!.raw, /缓存层/);
    assert.ok(
      estimateMessagesTokens(calls[0]!.body.messages) + OUTPUT_TOKENS_RESERVE <= 3000,
      `${estimateMessagesTokens(calls[0]!.body.messages)} tokens sent`,
    );
    assert.ok(JSON.parse(r.stdout).llm.tokens <= 3000);
    assert.match(
      readFileSync(join(ws, 'second-brain/summaries/2026-11-18-wrapup.md'), 'utf8'),
      /\ngenerator: "memfold wrapup 1 \(llm test-model\)"\n/,
    );
  });

  test('a bullet citing a turn the cut left out of the prompt is rejected', async (t) => {
    const { ws, llm } = await setup(t, { maxTokensPerRun: 3000 }, chineseTalk);
    llm.chat.handler = (body) =>
      schemaName(body) === 'memfold_wrapup'
        ? {
            ...empty,
            decisions: [{ ...none, text: '缓存层延迟', session_id: 'zh-2026-11-18', first_turn: 60, last_turn: 60 }],
          }
        : { entries: [] };
    const r = await mem(['-C', ws, ...ARGS]);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(
      llm.chat.requests.find((q) => schemaName(q.body) === 'memfold_wrapup')!.raw,
      /\[60\] assistant/,
      'turn 60 was not sent',
    );
    assert.match(
      r.stderr,
      /decisions\[0\] cites no entry and no session turn range that was sent \(session zh-2026-11-18, turns 60-60\)/,
    );
    assert.match(
      readFileSync(join(ws, 'second-brain/summaries/2026-11-18-wrapup.md'), 'utf8'),
      /\ngenerator: "memfold wrapup 1 \(rules\)"\n/,
    );
  });
});
