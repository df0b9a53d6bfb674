/**
 * compound's LLM path against a real OpenAI-compatible HTTP server on 127.0.0.1: validated summaries
 * and archive topics are used; an answer that would write outside the allowance or break MEMORY.md's
 * format is rejected and the rule-based rewrite is written instead.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { estimateMessagesTokens, OUTPUT_TOKENS_RESERVE } from '../src/extract/llm-budget.js';
import { editConfig, mem } from './helpers/cli.js';
import { HttpStatus, startOpenAIServer, type ChatRequestBody } from './helpers/openai-server.js';
import { weekWorkspace } from './helpers/week-fixture.js';

const NOW = '2026-11-23T06:00';
const NOTE = 'NOTE-20261117-周五下午不发布新版本';
const schemaName = (b: ChatRequestBody) => b.response_format?.json_schema?.name;
const sentIds = (b: ChatRequestBody) =>
  [
    ...b.messages
      .map((m) => m.content)
      .join('\n')
      .matchAll(/^- id: (\S+)$/gmu),
  ].map((m) => m[1]!);
const section = (id: string) =>
  id.startsWith('RULE') ? 'Core rules' : id.startsWith('NOTE') ? 'Notes' : 'Active decisions';

/** The week read by microsync; with `late`, the last day's sessions arrive after it, for the catch-up to read. */
async function setup(
  t: { after(fn: () => void | Promise<void>): void },
  llmCfg: Record<string, unknown> = {},
  late = false,
) {
  const week = weekWorkspace(t, late ? '2026-11-19' : '2026-11-20');
  assert.equal((await mem(['-C', week.ws, 'microsync', '--since', 'all', '--no-llm', '--now', NOW])).code, 0);
  if (late) week.release('2026-11-20');
  const llm = await startOpenAIServer();
  t.after(() => llm.close());
  editConfig(
    week.ws,
    (cfg) => (cfg.llm = { baseURL: llm.url, model: 'test-model', maxRetries: 0, timeoutMs: 10_000, ...llmCfg }),
  );
  return { ...week, llm };
}

function allFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) =>
    statSync(join(dir, n)).isDirectory() ? allFiles(join(dir, n)) : [join(dir, n)],
  );
}

describe('mem compound with an LLM', () => {
  test('uses validated summaries and moves detail-level entries to an archive topic', async (t) => {
    const { ws, llm } = await setup(t);
    llm.chat.handler = (body) =>
      schemaName(body) === 'memfold_compound'
        ? {
            items: sentIds(body).map((id) => ({
              id,
              section: section(id),
              summary_lines: [`Model summary of ${id.split('-')[0]}`, 'second line'],
              archive_topic: id === NOTE ? 'release-policy' : null,
            })),
          }
        : { entries: [] };
    const r = await mem(['-C', ws, 'compound', '--now', NOW, '--json']);
    assert.equal(r.code, 0, r.stderr);
    const memory = readFileSync(join(ws, 'MEMORY.md'), 'utf8');
    assert.match(
      memory,
      /## Core rules\n- Model summary of RULE \(\[RULE-20261120-error-pages-must-never-show-stack-traces\]\(memory\/2026-11-20\.md#rule-error-pages-must-never-show-stack-traces\)\)\n  second line\n/,
    );
    assert.ok(!memory.includes(NOTE), 'a detail-level entry leaves MEMORY.md');
    assert.match(
      readFileSync(join(ws, 'memory/archive/release-policy.md'), 'utf8'),
      new RegExp(
        `^# Archive: release-policy\\n[\\s\\S]*\\n- 周五下午不发布新版本 \\(\\[${NOTE}\\]\\(\\.\\./2026-11-17\\.md\\)\\) — moved out of MEMORY\\.md in 2026-W47\\n$`,
        'u',
      ),
    );
    assert.match(
      readFileSync(join(ws, 'memory/archive/weekly-2026-W47.md'), 'utf8'),
      new RegExp(
        `- demoted: ${NOTE} \\(2026-11-17\\): detail-level, listed in memory/archive/release-policy\\.md`,
        'u',
      ),
    );
    const call = llm.chat.requests.find((q) => schemaName(q.body) === 'memfold_compound')!;
    assert.match(call.raw, /\[memfold-job\]/);
    assert.equal(llm.chat.requests.filter((q) => schemaName(q.body) === 'memfold_compound').length, 1);
    assert.equal(JSON.parse(r.stdout).llm.calls, llm.chat.requests.length, "the run reports its catch-up's calls too");

    // A model answers differently each time: with the same input, compound does not ask again.
    llm.chat.handler = (body) =>
      schemaName(body) === 'memfold_compound'
        ? {
            items: sentIds(body).map((id) => ({
              id,
              section: section(id),
              summary_lines: ['another wording'],
              archive_topic: null,
            })),
          }
        : { entries: [] };
    const again = await mem(['-C', ws, 'compound', '--now', NOW, '--json']);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(JSON.parse(again.stdout).changed, false);
    assert.equal(readFileSync(join(ws, 'MEMORY.md'), 'utf8'), memory);
    assert.equal(llm.chat.requests.filter((q) => schemaName(q.body) === 'memfold_compound').length, 1);
  });

  test('redacts a secret the model writes before MEMORY.md is written', async (t) => {
    const { ws, llm } = await setup(t);
    const leaked = 'ghp_' + 'Z9y8xW7vU6tS5rQ4pO3nM2lK1jI0hG9fJ3i2';
    llm.chat.handler = (body) =>
      schemaName(body) === 'memfold_compound'
        ? {
            items: sentIds(body).map((id) => ({
              id,
              section: section(id),
              summary_lines: [`Use token ${leaked} for deploys`],
              archive_topic: null,
            })),
          }
        : { entries: [] };
    const r = await mem(['-C', ws, 'compound', '--now', NOW]);
    assert.equal(r.code, 0, r.stderr);
    const memory = readFileSync(join(ws, 'MEMORY.md'), 'utf8');
    assert.match(memory, /\n- Use token \[REDACTED:github-pat\] for deploys \(\[RULE-/);
    assert.ok(!memory.includes(leaked));
    const lint = await mem(['-C', ws, 'lint', '--secrets']);
    assert.equal(lint.code, 0, lint.stdout + lint.stderr);
  });

  test('rejects an answer that targets a path outside the allowance or breaks the format', async (t) => {
    const { root, ws, llm } = await setup(t);
    const answers = [
      (ids: string[]) => ({
        items: ids.map((id) => ({
          id,
          section: section(id),
          summary_lines: ['ok'],
          archive_topic: id === NOTE ? '../../../outside' : null,
        })),
      }),
      (ids: string[]) => ({
        items: ids.map((id) => ({
          id,
          section: section(id),
          summary_lines: ['<!-- mem:pinned:end -->'],
          archive_topic: null,
        })),
      }),
    ];
    llm.chat.handler = (body) =>
      schemaName(body) === 'memfold_compound' ? answers.shift()!(sentIds(body)) : { entries: [] };
    const r = await mem(['-C', ws, 'compound', '--now', NOW]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stderr,
      /LLM answer rejected: items\[\d+\]\.archive_topic "\.\.\/\.\.\/\.\.\/outside" is not a plain topic name/,
    );
    assert.match(
      r.stderr,
      /LLM answer rejected: items\[0\] \(\S+\) has a summary line that is not one line of plain text/,
    );
    assert.match(r.stderr, /using the rule-based rewrite/);
    assert.equal(llm.chat.requests.filter((q) => schemaName(q.body) === 'memfold_compound').length, 2);
    assert.deepEqual(
      allFiles(root).filter((f) => f.includes('outside')),
      [],
    );
    const memory = readFileSync(join(ws, 'MEMORY.md'), 'utf8');
    assert.equal(memory.match(/<!-- mem:pinned:end -->/g)?.length, 1);
    assert.match(memory, /- Every PR needs at least one reviewer \(\[RULE-2026111[69]-/);
  });

  for (const [what, failure, said] of [
    ['out of reach', 'down', /could not be reached/],
    ['refusing the key (401)', 401, /answered HTTP 401/],
  ] as const) {
    test(`an endpoint ${what}: the catch-up is skipped with a warning and the rule-based MEMORY.md is written`, async (t) => {
      const { ws, llm } = await setup(t, failure === 'down' ? { baseURL: 'http://127.0.0.1:1/v1' } : {}, true);
      llm.chat.handler = () => {
        throw new HttpStatus(401);
      };
      const r = await mem(['-C', ws, 'compound', '--now', NOW, '--json']);
      assert.equal(r.code, 0, r.stderr);
      assert.match(
        r.stderr,
        new RegExp(
          `microsync catch-up skipped, nothing written: LLM endpoint \\S+ \\(model test-model\\) ${said.source}`,
        ),
      );
      assert.match(r.stderr, /using the rule-based rewrite/);
      assert.match(JSON.parse(r.stdout).catchUp.skipped, said);
      // The job's own request failed as a request: it is not sent again with "your reply was rejected".
      assert.equal(r.stderr.match(/LLM answer rejected/g)?.length, 1, r.stderr);
      assert.match(
        readFileSync(join(ws, 'MEMORY.md'), 'utf8'),
        /- Every PR needs at least one reviewer \(\[RULE-2026111[69]-/,
      );
    });
  }

  test('one budget for the run: calls its catch-up spent are not made again for MEMORY.md', async (t) => {
    const { ws, llm } = await setup(t, { maxCallsPerRun: 1 }, true);
    const r = await mem(['-C', ws, 'compound', '--now', NOW, '--json']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(llm.chat.requests.length, 1, 'the catch-up spent the one call');
    assert.equal(llm.chat.requests.filter((q) => schemaName(q.body) === 'memfold_compound').length, 0);
    const out = JSON.parse(r.stdout);
    assert.equal(out.llm.calls, 1);
    assert.equal(out.llm.stoppedByBudget, true);
    assert.match(
      r.stderr,
      /compound 2026-W47: the run's LLM budget cannot pay for the next call, its prompt and 1000 tokens for the reply \(0 calls and \d+ tokens left of llm\.maxCallsPerRun 1 and/,
    );
    assert.match(r.stderr, /using the rule-based rewrite/);
    assert.match(
      readFileSync(join(ws, 'MEMORY.md'), 'utf8'),
      /- Every PR needs at least one reviewer \(\[RULE-2026111[69]-/,
    );
  });

  test('sends the best-ranked entries the tokens left can pay for; the others keep their rule-based summaries', async (t) => {
    const { ws, llm } = await setup(t, { maxTokensPerRun: 1300 });
    llm.chat.handler = (body) =>
      schemaName(body) === 'memfold_compound'
        ? {
            items: sentIds(body).map((id) => ({
              id,
              section: section(id),
              summary_lines: [`Model summary of ${id.split('-')[0]}`],
              archive_topic: null,
            })),
          }
        : { entries: [] };
    const r = await mem(['-C', ws, 'compound', '--now', NOW, '--json']);
    assert.equal(r.code, 0, r.stderr);
    const calls = llm.chat.requests.filter((q) => schemaName(q.body) === 'memfold_compound');
    assert.equal(calls.length, 1);
    const sent = sentIds(calls[0]!.body);
    const out = JSON.parse(r.stdout);
    assert.ok(sent.length > 0 && sent.length < out.promoted.length, `${sent.length} of ${out.promoted.length} sent`);
    assert.ok(estimateMessagesTokens(calls[0]!.body.messages) + OUTPUT_TOKENS_RESERVE <= 1300);
    const memory = readFileSync(join(ws, 'MEMORY.md'), 'utf8');
    assert.equal(memory.match(/- Model summary of /g)?.length, sent.length);
  });
});
