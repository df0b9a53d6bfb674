/**
 * `mem microsync` over runs that meet the world as it is: an LLM endpoint that refuses one request,
 * runs days apart, revisions among unrelated rules, and people whose first words name a cron job.
 * The built CLI as a child process, transcripts written here (their mtimes set with utimesSync), and
 * for the LLM a real OpenAI-compatible server on 127.0.0.1 in this process.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { dailyText, editConfig, entryIds, exampleWorkspace, mem } from './helpers/cli.js';
import {
  HttpStatus,
  promptTurns,
  startOpenAIServer,
  type ChatRequestBody,
  type OpenAIServer,
} from './helpers/openai-server.js';

type Line = [role: 'user' | 'assistant', text: string, timestamp: string];

/** The example workspace reading only `<root>/sessions` (generic JSONL), which the test fills. */
function sessionsWorkspace(t: Parameters<typeof exampleWorkspace>[0]) {
  const { ws, root } = exampleWorkspace(t);
  const dir = join(root, 'sessions');
  mkdirSync(dir);
  editConfig(ws, (cfg) => (cfg.sources = [{ name: 'sessions', kind: 'jsonl', path: '../sessions' }]));
  /** Writes (or rewrites) one session; its mtime is its last line's time, as if written then. */
  const write = (name: string, lines: Line[]) => {
    const file = join(dir, `${name}.jsonl`);
    writeFileSync(
      file,
      lines
        .map(([role, content, timestamp]) => JSON.stringify({ role, content, timestamp, session_id: name }))
        .join('\n') + '\n',
    );
    const last = new Date(lines[lines.length - 1]![2]);
    utimesSync(file, last, last);
  };
  return { ws, write };
}

const statuses = (ws: string) =>
  dailyText(ws)
    .split('\n')
    .filter((l) => /^## |^- supersedes:/.test(l));

describe('an LLM request refused for what it holds', () => {
  const NOW = '2026-11-22T09:00:00Z';
  let llm: OpenAIServer;
  before(async () => {
    llm = await startOpenAIServer();
  });
  after(() => llm.close());
  beforeEach(() => {
    llm.requests.length = 0;
  });

  /** A stand-in model that answers `status` to any prompt holding POISON, and finds "decided" elsewhere. */
  const refusing = (status: number) => (body: ChatRequestBody) => {
    if (JSON.stringify(body.messages).includes('POISON')) {
      throw new HttpStatus(status, {
        error: {
          message: "This model's maximum context length is 8192 tokens",
          type: 'invalid_request_error',
          param: 'messages',
          code: 'context_length_exceeded',
        },
      });
    }
    const entries = promptTurns(body)
      .filter((t) => t.role === 'user' && /decided/.test(t.text))
      .map((t) => ({
        kind: 'Decision',
        title: `LLM: ${t.text.slice(0, 40)}`,
        conclusion: t.text,
        why: null,
        finding: null,
        impact: null,
        confidence: 0.8,
        origin: 'user',
        key: null,
        scope: null,
        refs: null,
        revises: false,
        supersedes_hint: null,
        first_turn: t.index,
        last_turn: t.index,
      }));
    return { entries };
  };

  function llmSessions(t: Parameters<typeof exampleWorkspace>[0], llmCfg: Record<string, unknown> = {}) {
    const s = sessionsWorkspace(t);
    editConfig(
      s.ws,
      (cfg) => (cfg.llm = { baseURL: llm.url, model: 'test-model', timeoutMs: 2000, maxRetries: 2, ...llmCfg }),
    );
    s.write('good', [
      ['user', 'We decided to ship releases on Tuesdays.', '2026-11-22T08:00:00Z'],
      ['assistant', 'Noted.', '2026-11-22T08:00:05Z'],
    ]);
    s.write('poison', [
      ['user', 'POISON We decided to keep the audit log in Kafka.', '2026-11-22T08:10:00Z'],
      ['assistant', 'Noted.', '2026-11-22T08:10:05Z'],
    ]);
    return s;
  }
  const poisoned = () => llm.chat.requests.filter((r) => r.raw.includes('POISON')).length;

  test('a 400 for one batch: the rules read it, the other batches land, one warning, and the next run goes on', async (t) => {
    llm.chat.handler = refusing(400);
    const { ws } = llmSessions(t);
    const r = await mem(['-C', ws, 'microsync', '--now', NOW]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stderr,
      /^warning: the LLM endpoint refused a request, so the rule-based extractor read those turns instead: turns 1-2 of \S*poison\.jsonl \(LLM endpoint \S+ \(model test-model\) answered HTTP 400: [^\n]*maximum context length[^\n]*\)\n$/,
    );
    assert.equal(poisoned(), 1, 'a refusal is not retried');
    const text = dailyText(ws);
    assert.match(text, /## Decision: LLM: We decided to ship releases on Tuesdays/, 'the LLM read the other session');
    assert.match(
      text,
      /## Decision: Keep the audit log in Kafka\n[^#]*- origin: user\n/,
      'the rules read the refused one',
    );

    const again = await mem(['-C', ws, 'microsync', '--now', '2026-11-22T10:00:00Z']);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.stderr, '');
    assert.equal(poisoned(), 1, 'the cursor moved past the refused turns');
  });

  test('a 401 for one batch still fails the run in one line, writing nothing', async (t) => {
    llm.chat.handler = refusing(401);
    const { ws } = llmSessions(t);
    const r = await mem(['-C', ws, 'microsync', '--now', NOW]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^mem: LLM endpoint \S+ \(model test-model\) answered HTTP 401: [^\n]*\n$/);
    assert.deepEqual(entryIds(ws), []);
    assert.ok(!existsSync(join(ws, '.mem', 'cursors.json')), 'no cursor moved: the next run tries again');
  });

  test('an endpoint that cannot be reached still fails the run in one line', async (t) => {
    const gone = await startOpenAIServer();
    await gone.close();
    const { ws } = llmSessions(t, { baseURL: gone.url, maxRetries: 0 });
    const r = await mem(['-C', ws, 'microsync', '--now', NOW]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^mem: LLM endpoint \S+ \(model test-model\) could not be reached \(1 attempt\)[^\n]*\n$/);
    assert.deepEqual(entryIds(ws), []);
  });
});

describe("an LLM batch after the reader's first", () => {
  test('is sent with the turns just before it as context', async (t) => {
    const llm = await startOpenAIServer();
    t.after(() => llm.close());
    llm.chat.handler = () => ({ entries: [] });
    const { ws, write } = sessionsWorkspace(t);
    editConfig(ws, (cfg) => (cfg.llm = { baseURL: llm.url, model: 'test-model', timeoutMs: 2000, maxRetries: 0 }));
    // One more turn than the reader hands over at once (BATCH_TURNS, read-file.ts): the last turn comes in a batch of its own.
    const lines: Line[] = Array.from({ length: 500 }, (_, i) => [
      'user',
      `Filler message number ${i}.`,
      `2026-11-21T10:${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}Z`,
    ]);
    lines[499] = ['assistant', 'Shall we move the nightly backup to 02:00?', '2026-11-21T10:08:19Z'];
    lines.push(['user', 'Yes, do that.', '2026-11-21T10:09:00Z']);
    write('long', lines);
    const r = await mem(['-C', ws, 'microsync', '--since', 'all', '--now', '2026-11-22T09:00:00Z']);
    assert.equal(r.code, 0, r.stderr);
    const last = llm.chat.requests.filter((q) => q.raw.includes('Yes, do that.'));
    assert.equal(last.length, 1);
    assert.match(
      last[0]!.raw,
      /## Context[^]*Shall we move the nightly backup to 02:00\?/,
      'the question the answer confirms is sent with it',
    );
  });
});

describe('runs far apart', () => {
  test('a session begun after the last run is read whole, however long ago that run was; old files give only new turns', async (t) => {
    const { ws, write } = sessionsWorkspace(t);
    write('old', [['user', 'We decided to name the service ledger-api.', '2026-11-01T09:00:00Z']]);
    write('friday', [['user', 'We decided to tag every release.', '2026-11-20T21:00:00Z']]);
    const friday = await mem(['-C', ws, 'microsync', '--now', '2026-11-20T22:00:00Z']);
    assert.equal(friday.code, 0, friday.stderr);
    assert.deepEqual(
      entryIds(ws),
      ['DECISION-20261120-tag-every-release'],
      'the first run reads the last 24 hours only',
    );

    // Cron off for the weekend: a session on Saturday morning, and a line added to the old file.
    write('saturday', [
      ['user', 'We decided to freeze deploys on weekends.', '2026-11-21T10:00:00Z'],
      ['assistant', 'Frozen.', '2026-11-21T10:05:00Z'],
    ]);
    write('old', [
      ['user', 'We decided to name the service ledger-api.', '2026-11-01T09:00:00Z'],
      ['user', 'We decided to add a status page.', '2026-11-21T11:00:00Z'],
    ]);
    const monday = await mem(['-C', ws, 'microsync', '--now', '2026-11-22T16:00:00Z']);
    assert.equal(monday.code, 0, monday.stderr);
    assert.deepEqual(entryIds(ws), [
      'DECISION-20261120-tag-every-release',
      'DECISION-20261121-add-a-status-page',
      'DECISION-20261121-freeze-deploys-on-weekends',
    ]);
  });
});

describe('supersedes', () => {
  test('unrelated rules sharing words are not linked; a rule saying it changes another supersedes it', async (t) => {
    const { ws, write } = sessionsWorkspace(t);
    write('a', [['user', 'Rule: always run the migrations before every deploy.', '2026-11-19T10:00:00Z']]);
    write('b', [['user', 'Rule: we no longer deploy from laptops, always deploy through CI.', '2026-11-20T10:00:00Z']]);
    write('c', [['user', 'Rule: we deploy on Fridays.', '2026-11-20T11:00:00Z']]);
    write('d', [['user', 'Rule: we now deploy on Thursdays instead of Fridays.', '2026-11-21T10:00:00Z']]);
    const r = await mem(['-C', ws, 'microsync', '--since', 'all', '--now', '2026-11-22T09:00:00Z']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(statuses(ws), [
      '## Rule: Always run the migrations before every deploy',
      '## Rule: We no longer deploy from laptops, always deploy through CI',
      '## Rule: We deploy on Fridays',
      '## Rule: We now deploy on Thursdays instead of Fridays',
      '- supersedes: RULE-20261120-we-deploy-on-fridays',
    ]);
  });
});

describe('sessions judged by their first message', () => {
  test('a person who starts with "Cron job ..." is read; a session opened by a cron template is skipped', async (t) => {
    const { ws, write } = sessionsWorkspace(t);
    write('person', [
      ['user', "Cron job failed again last night, let's fix the schedule.", '2026-11-21T10:00:00Z'],
      ['assistant', 'It overlaps with the backup window.', '2026-11-21T10:00:10Z'],
      ['user', 'We decided to move the billing cron to 02:00.', '2026-11-21T10:01:00Z'],
    ]);
    write('openclaw-cron', [
      ['user', "[cron:7f3a2c10 Nightly billing] Reconcile yesterday's invoices.", '2026-11-21T02:00:00Z'],
      ['user', 'We decided to let the reconciliation bot push to main.', '2026-11-21T02:00:05Z'],
    ]);
    write('labelled', [['user', 'Cron job "backup": We decided to keep 7 snapshots.', '2026-11-21T03:00:00Z']]);
    const r = await mem(['-C', ws, '--json', 'microsync', '--since', 'all', '--now', '2026-11-22T09:00:00Z']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(entryIds(ws), ['DECISION-20261121-move-the-billing-cron-to-02-00']);
    const out = JSON.parse(r.stdout) as { skippedSessions: Array<{ path: string; reason: string }> };
    assert.deepEqual(out.skippedSessions.map((s) => [s.path.replace(/^.*\//, ''), s.reason]).sort(), [
      ['labelled.jsonl', 'scheduler or heartbeat session'],
      ['openclaw-cron.jsonl', 'scheduler or heartbeat session'],
    ]);
  });
});
