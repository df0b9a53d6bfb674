/**
 * Where a microsync read may stop and what it may trust, end to end (the built CLI on temp
 * workspaces): a Markdown turn still being written is held back, a budget stop inside one JSONL line
 * keeps message numbers exact, times without an offset are read in the configured zone, and a
 * same-size rewrite is noticed.
 */
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { dailyText, editConfig, entryIds, exampleWorkspace, memOk } from './helpers/cli.js';
import {
  promptTurns,
  startOpenAIServer,
  wireEntry,
  type ChatRequestBody,
  type OpenAIServer,
} from './helpers/openai-server.js';
import { parseMarkdownTranscript } from '../src/transcripts/markdown.js';
import { normalizeTimestamp } from '../src/transcripts/time.js';

/** The bundled example workspace reading only `<root>/live` as `kind`. */
function liveWorkspace(t: Parameters<typeof exampleWorkspace>[0], kind: string, zone = 'UTC') {
  const { root, ws } = exampleWorkspace(t);
  const live = join(root, 'live');
  mkdirSync(live);
  editConfig(ws, (cfg) => {
    cfg.timezone = zone;
    cfg.sources = [{ name: 'live', kind, path: '../live' }];
  });
  return { ws, live };
}

const json = <T>(r: { stdout: string }) => JSON.parse(r.stdout) as T;
const touch = (file: string, iso: string) => utimesSync(file, new Date(iso), new Date(iso));
/** Each entry's id and message_range, as written. */
const ranges = (ws: string) =>
  [...dailyText(ws).matchAll(/^- id: (\S+)\n(?:.*\n)*?  - message_range: (\S+)$/gm)]
    .map((m) => `${m[1]} ${m[2]}`)
    .sort();

test('a Markdown turn still being written is held back until the file is quiet, then read whole', async (t) => {
  const { ws, live } = liveWorkspace(t, 'markdown');
  const file = join(live, 'session.md');
  writeFileSync(
    file,
    '---\nsession_id: live-md\n---\n\n## user · 2026-11-20T09:00:00Z\n\nMorning.\n\n## user · 2026-11-20T09:01:00Z\n\nFrom now on, every migration needs a rollback script and a dry run against',
  );
  touch(file, '2026-11-20T09:02:00Z');
  const first = json<{ turns: number; added: unknown[] }>(
    await memOk(['-C', ws, '--json', 'microsync', '--now', '2026-11-20T09:03:00Z']),
  );
  assert.equal(first.turns, 1, 'the first turn is closed by the next heading; the last one is still open');
  assert.deepEqual(first.added, []);

  appendFileSync(file, ' a copy of production.\n');
  touch(file, '2026-11-20T09:04:00Z');
  const writing = json<{ turns: number }>(
    await memOk(['-C', ws, '--json', 'microsync', '--now', '2026-11-20T09:05:00Z']),
  );
  assert.equal(writing.turns, 0, 'modified a minute ago: the last turn may still grow');

  const quiet = json<{ turns: number }>(
    await memOk(['-C', ws, '--json', 'microsync', '--now', '2026-11-20T09:30:00Z']),
  );
  assert.equal(quiet.turns, 1);
  assert.deepEqual(entryIds(ws), ['RULE-20261120-every-migration-needs-a-rollback-script-and-a-dry-run']);
  assert.match(
    dailyText(ws),
    /- conclusion: Every migration needs a rollback script and a dry run against a copy of production\n/,
  );
  assert.match(dailyText(ws), /- message_range: 2-2\n/);
});

let llm: OpenAIServer;
before(async () => {
  llm = await startOpenAIServer();
  // A stand-in model: every user turn saying "decided" is a Decision citing that turn alone.
  llm.chat.handler = (body: ChatRequestBody) => ({
    entries: promptTurns(body)
      .filter((x) => x.role === 'user' && x.text.includes('decided'))
      .map((x) =>
        wireEntry({
          kind: 'Decision',
          title: x.text.slice(0, 60),
          conclusion: x.text,
          confidence: 0.8,
          first_turn: x.index,
          last_turn: x.index,
        }),
      ),
  });
});
after(() => llm.close());

const claudeLine = (content: unknown, time: string) =>
  JSON.stringify({
    type: 'user',
    sessionId: 'budget-1',
    isSidechain: false,
    timestamp: `2026-11-20T${time}Z`,
    message: { role: 'user', content },
  });
/** One line, three turns: a user text, a tool result, a user text. */
const threeTurns = (a: string, b: string, time: string) =>
  claudeLine(
    [
      { type: 'text', text: a },
      { type: 'tool_result', tool_use_id: 'gone', content: 'ok' },
      { type: 'text', text: b },
    ],
    time,
  );

/**
 * Each entry's id and message_range after one run without a budget, and after runs of at most
 * `maxCallsPerRun` calls until one is not stopped (the first must be).
 */
async function wholeAndSplit(
  t: Parameters<typeof exampleWorkspace>[0],
  lines: string[],
  llmCfg: { turnsPerCall: number; maxCallsPerRun: number },
) {
  const setup = (maxCallsPerRun: number) => {
    const { ws, live } = liveWorkspace(t, 'claude-code');
    writeFileSync(join(live, 'budget-1.jsonl'), lines.join('\n') + '\n');
    editConfig(
      ws,
      (cfg) => (cfg.llm = { baseURL: llm.url, model: 'test-model', turnsPerCall: llmCfg.turnsPerCall, maxCallsPerRun }),
    );
    return ws;
  };
  const run = async (ws: string) =>
    json<{ llm: { stoppedByBudget: boolean } }>(
      await memOk(['-C', ws, '--json', 'microsync', '--now', '2026-11-20T10:00:00Z']),
    ).llm.stoppedByBudget;
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
    threeTurns(
      'We decided to cap uploads at 25 MB.',
      'We decided that every migration gets a rollback script.',
      '09:00:02',
    ),
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
  const lines = [
    ...filler,
    threeTurns('We decided to cap uploads at 25 MB.', 'We decided to use pnpm workspaces.', '09:00:02'),
    claudeLine('We decided to keep the event store in PostgreSQL.', '09:00:03'),
  ];
  const { whole, split } = await wholeAndSplit(t, lines, { turnsPerCall: 1000, maxCallsPerRun: 1 });
  assert.equal(whole.length, 3, whole.join('\n'));
  assert.deepEqual(split, whole);
});

test('a time without an offset is a wall-clock time in the given zone; an offset, Z or epoch wins', () => {
  const cases: Array<[unknown, string | undefined, string]> = [
    ['2026-11-20T23:30:00', 'Asia/Shanghai', '2026-11-20T15:30:00.000Z'],
    ['2026-11-20 01:30', 'Asia/Shanghai', '2026-11-19T17:30:00.000Z'],
    ['2026-11-20', 'Asia/Shanghai', '2026-11-19T16:00:00.000Z'],
    ['2026-11-20T23:30:00Z', 'Asia/Shanghai', '2026-11-20T23:30:00.000Z'],
    ['2026-11-20T23:30:00+01:00', 'Asia/Shanghai', '2026-11-20T22:30:00.000Z'],
    [1795000000, 'Asia/Shanghai', '2026-11-18T11:06:40.000Z'],
    ['2026-11-20T23:30:00', undefined, '2026-11-20T23:30:00.000Z'],
  ];
  for (const [input, zone, expected] of cases)
    assert.equal(normalizeTimestamp(input, zone), expected, `${String(input)} in ${zone}`);
  // YAML alone reads an unquoted time without an offset as UTC: the front matter keeps its text.
  assert.equal(parseMarkdownTranscript('---\nstarted_at: 2026-11-20T23:40:00\n---\n').startedAt, '2026-11-20T23:40:00');
  assert.deepEqual(
    parseMarkdownTranscript('---\nstarted_at: 2026-11-20T23:40:00+08:00\n---\n').startedAt,
    new Date('2026-11-20T15:40:00Z'),
  );
});

test('times without an offset are read in the configured zone, and the entry lands on that local day', async (t) => {
  const { ws, live } = liveWorkspace(t, 'jsonl', 'Asia/Shanghai');
  const say = (content: string, timestamp: string, session_id: string) =>
    JSON.stringify({ role: 'user', content, timestamp, session_id }) + '\n';
  // 23:30 in Shanghai is 15:30 UTC the same day; read as UTC it would be 07:30 the next day there.
  writeFileSync(
    join(live, 'late.jsonl'),
    say('From now on, every migration needs a rollback script.', '2026-11-20T23:30:00', 'late'),
  );
  writeFileSync(
    join(live, 'early.jsonl'),
    say('We decided to move the event store to PostgreSQL.', '2026-11-20T01:30:00', 'early'),
  );
  mkdirSync(join(live, 'notes'));
  editConfig(
    ws,
    (cfg) => (cfg.sources = [...(cfg.sources as object[]), { name: 'notes', kind: 'markdown', path: '../live/notes' }]),
  );
  // A heading's local time, and front matter's: YAML alone would read an offset-less time as UTC.
  writeFileSync(
    join(live, 'notes', 'md.md'),
    '---\nsession_id: md-local\nstarted_at: 2026-11-20T23:40:00\n---\n\n## user · 2026-11-20T23:45:00\n\nWe decided to cap uploads at 25 MB.\n\n## user\n\nRemember this: the staging DB password rotates on Mondays.\n',
  );
  await memOk(['-C', ws, 'microsync', '--since', 'all', '--now', '2026-11-21T12:00:00+08:00']);
  assert.deepEqual(
    ['2026-11-19.md', '2026-11-20.md', '2026-11-21.md'].filter((f) => existsSync(join(ws, 'memory', f))),
    ['2026-11-20.md'],
  );
  const day = readFileSync(join(ws, 'memory', '2026-11-20.md'), 'utf8');
  assert.equal([...day.matchAll(/^- date: 2026-11-20$/gm)].length, 4, day);
});

test('a same-size rewrite before the cursor is noticed; the re-read from the start adds only what changed', async (t) => {
  const { ws, live } = liveWorkspace(t, 'jsonl');
  const file = join(live, 'long.jsonl');
  // Longer than the head and tail probes together, with both statements far from either end.
  const lines = Array.from({ length: 200 }, (_, i) =>
    JSON.stringify({
      role: i % 2 ? 'assistant' : 'user',
      session_id: 'long',
      timestamp: `2026-11-20T09:${String(Math.floor(i / 4)).padStart(2, '0')}:00Z`,
      content:
        i === 80
          ? 'From now on, every migration needs a rollback script.'
          : i === 100
            ? 'Remember this: the staging cache is Redis.'
            : `chit chat, line ${i}`,
    }),
  );
  writeFileSync(file, lines.join('\n') + '\n');
  const now = ['-C', ws, '--json', 'microsync', '--now', '2026-11-20T12:00:00Z'];
  await memOk(now);
  assert.equal(entryIds(ws).length, 2);
  const size = statSync(file).size;

  writeFileSync(file, readFileSync(file, 'utf8').replace('cache is Redis', 'cache is Kafka'));
  // As a redaction tool would leave it: same size, modified later (set, not left to the clock's resolution).
  touch(file, new Date(statSync(file).mtimeMs + 60_000).toISOString());
  assert.equal(statSync(file).size, size);
  const r = await memOk(now);
  assert.match(r.stderr, /long\.jsonl: .*; read again from the start/);
  const out = json<{ added: Array<{ id: string }>; skipped: unknown[] }>(r);
  assert.deepEqual(
    out.added.map((a) => a.id),
    ['NOTE-20261120-the-staging-cache-is-kafka'],
  );
  assert.equal(out.skipped.length, 1, 'the unchanged rule is not added twice');
  assert.equal(entryIds(ws).length, 3);
});
