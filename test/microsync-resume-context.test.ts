/**
 * A confirmation read by the run after the one that read its proposal: "Shall we cap uploads at
 * 25 MB?", a scheduled `mem microsync`, then "Yes, agreed.". The cursor keeps where the last few
 * turns before it began (positions only, never text), and the resumed read re-reads them as context,
 * so the reply still meets the proposal — with the rules and with an LLM — and the entry cites what
 * one uninterrupted run cites. The built CLI as a child process, transcripts written here (mtimes set
 * with utimesSync), and for the LLM a real OpenAI-compatible server on 127.0.0.1 in this process.
 */
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ContextMarks } from '../src/jobs/microsync/context-marks.js';
import { listTranscriptFiles, openTranscript, type SourceKind, type Turn } from '../src/transcripts/index.js';
import { dailyText, editConfig, exampleWorkspace, mem } from './helpers/cli.js';
import {
  promptTurns,
  startOpenAIServer,
  wireEntry,
  type ChatRequestBody,
  type OpenAIServer,
} from './helpers/openai-server.js';
import { collect, FIXTURES } from './helpers/transcripts-tmp.js';

type Said = [role: 'user' | 'assistant', text: string, time: string];
type Kind = 'jsonl' | 'markdown' | 'claude-code';

const ASKED: Said[] = [
  ['user', 'What limit should uploads have?', '2026-11-22T08:00:00Z'],
  ['assistant', 'Shall we cap uploads at 25 MB?', '2026-11-22T08:00:05Z'],
];
const AGREED: Said = ['user', 'Yes, agreed.', '2026-11-22T08:10:00Z'];
/** Three turns said before the question. */
const EARLY: Said[] = ['one', 'two', 'three'].map((w, i) => [
  i % 2 ? 'assistant' : 'user',
  `Turn ${w}.`,
  `2026-11-22T07:5${i}:00Z`,
]);
/** A scheduled run between the proposal and the reply, and one after the reply. */
const BETWEEN = '2026-11-22T08:07:00Z';
const AFTER = '2026-11-22T08:20:00Z';

/** Each format's lines for what was said; Claude Code's assistant first looks at a file with a tool. */
const render: Record<Kind, { name: string; head: string; turn: (s: Said, i: number) => string }> = {
  jsonl: {
    name: 's1.jsonl',
    head: '',
    turn: ([role, content, timestamp]) => JSON.stringify({ role, content, timestamp, session_id: 's1' }) + '\n',
  },
  markdown: {
    name: 's1.md',
    head: '---\nsession_id: s1\nstarted_at: 2026-11-22T08:00:00Z\n---\n\n',
    turn: ([role, text, time]) => `## ${role} · ${time}\n\n${text}\n\n`,
  },
  'claude-code': {
    name: 'project/s1.jsonl',
    head: '',
    turn: ([role, text, timestamp], i) => {
      const line = (type: string, content: unknown, at = timestamp) =>
        JSON.stringify({ type, sessionId: 's1', timestamp: at, message: { role: type, content } }) + '\n';
      if (role === 'user' || i !== 1) return line(role, text);
      // The proposal comes after a tool call on a line of two turns, and its result: a cursor's
      // context begins at a line start, and the result's name comes from the cursor's pending tools.
      return (
        line(
          'assistant',
          [
            { type: 'text', text: 'Let me check the config first.' },
            { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: 'config.yml' } },
          ],
          '2026-11-22T08:00:02Z',
        ) +
        line(
          'user',
          [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'max_upload: 100MB' }],
          '2026-11-22T08:00:03Z',
        ) +
        line('assistant', text)
      );
    },
  },
};

/** The example workspace reading only `<root>/sessions` as `kind`; `say` appends turns, dating the file by the last. */
function sessionWorkspace(t: Parameters<typeof exampleWorkspace>[0], kind: Kind) {
  const { ws, root } = exampleWorkspace(t);
  editConfig(ws, (cfg) => (cfg.sources = [{ name: 'sessions', kind, path: '../sessions' }]));
  const { name, head, turn } = render[kind];
  const file = join(root, 'sessions', name);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, head);
  let said = 0;
  const say = (...turns: Said[]) => {
    appendFileSync(file, turns.map((s) => turn(s, said++)).join(''));
    const last = new Date(turns[turns.length - 1]![2]);
    utimesSync(file, last, last);
  };
  return { ws, file, say };
}

/** Byte offsets just past each line of a file. */
const lineEnds = (file: string) => {
  let end = 0;
  return readFileSync(file, 'utf8')
    .split(/(?<=\n)/)
    .map((l) => (end += Buffer.byteLength(l)));
};
const cursorsText = (ws: string) => readFileSync(join(ws, '.mem', 'cursors.json'), 'utf8');
const cursorOf = (ws: string, file: string) =>
  (JSON.parse(cursorsText(ws)) as { files: Record<string, Record<string, unknown>> }).files[file]!;
/** What names an entry and what it cites, without the temp folder it was read from. */
const citations = (ws: string) =>
  dailyText(ws)
    .split('\n')
    .filter((l) => /^## |^- id: |message_range|^- origin: /.test(l));

async function microsync(ws: string, now: string, extra: string[] = []) {
  const r = await mem(['-C', ws, 'microsync', '--now', now, ...extra]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, '');
  return r.stdout;
}

/** The same conversation read by one run after the reply, for the entries it must match. */
async function oneRun(t: Parameters<typeof exampleWorkspace>[0], kind: Kind, extra: string[] = []) {
  const s = sessionWorkspace(t, kind);
  s.say(...ASKED, AGREED);
  await microsync(s.ws, AFTER, extra);
  return citations(s.ws);
}

describe('a reply read by the run after its proposal, with the rules', () => {
  for (const kind of ['jsonl', 'markdown', 'claude-code'] as const) {
    test(`${kind}: the resumed run reads "Yes, agreed." with the proposal and stores what one run stores`, async (t) => {
      const s = sessionWorkspace(t, kind);
      s.say(...ASKED);
      await microsync(s.ws, BETWEEN);
      assert.equal(dailyText(s.ws), '', 'a proposal alone is no decision');
      const cursor = cursorOf(s.ws, s.file);
      assert.equal(typeof cursor.contextOffset, 'number');
      assert.ok(!cursorsText(s.ws).includes('25 MB'), 'the cursor keeps positions, never transcript text');

      s.say(AGREED);
      const out = await microsync(s.ws, AFTER);
      assert.match(out, /1 session read \(1 file\), 1 turn,/, 'the context turns are not counted as read');
      assert.match(dailyText(s.ws), /## Rule: Cap uploads at 25 MB\n[^#]*- origin: agent\n/);
      assert.deepEqual(citations(s.ws), await oneRun(t, kind));

      const json = JSON.parse((await mem(['-C', s.ws, 'microsync', '--now', AFTER, '--json'])).stdout) as {
        turns: number;
        bytesRead: number;
      };
      assert.deepEqual([json.turns, json.bytesRead], [0, 0], 'nothing new: nothing read, the context neither');
      assert.equal(cursorOf(s.ws, s.file).offset, statSync(s.file).size);
    });
  }

  test('an old cursor without the context fields still resumes: only the new turn is read, and the next cursor has them', async (t) => {
    const s = sessionWorkspace(t, 'jsonl');
    s.say(...ASKED);
    await microsync(s.ws, BETWEEN);
    const file = join(s.ws, '.mem', 'cursors.json');
    const value = JSON.parse(readFileSync(file, 'utf8')) as { files: Record<string, Record<string, unknown>> };
    const old = value.files[s.file]!;
    delete old.contextOffset;
    delete old.contextTurns;
    writeFileSync(file, JSON.stringify(value));

    s.say(AGREED);
    const out = await microsync(s.ws, AFTER);
    assert.match(
      out,
      /1 session read \(1 file\), 1 turn, 0 entries added/,
      'resumed as before: the reply alone, without context',
    );
    const next = cursorOf(s.ws, s.file);
    assert.deepEqual(
      [next.turns, next.contextOffset, next.contextTurns],
      [3, old.offset, 2],
      'the context can begin no earlier than the old cursor',
    );
  });

  test('a cursor whose context lies past it is damaged: dropped with the usual warning, and the file read again', async (t) => {
    const s = sessionWorkspace(t, 'jsonl');
    s.say(...ASKED);
    await microsync(s.ws, BETWEEN);
    const file = join(s.ws, '.mem', 'cursors.json');
    const value = JSON.parse(readFileSync(file, 'utf8')) as { files: Record<string, Record<string, unknown>> };
    value.files[s.file]!.contextOffset = (value.files[s.file]!.offset as number) + 1;
    writeFileSync(file, JSON.stringify(value));
    s.say(AGREED);
    const r = await mem(['-C', s.ws, 'microsync', '--now', AFTER]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stderr,
      /^warning: \.mem\/cursors\.json: the entry for \S+s1\.jsonl was damaged and dropped; read again/,
    );
    assert.match(r.stdout, /3 turns, 1 entry added/);
  });

  test("the cursor's context begins at the line of the fourth turn back", async (t) => {
    const s = sessionWorkspace(t, 'jsonl');
    s.say(...EARLY, ...ASKED);
    await microsync(s.ws, BETWEEN);
    const cursor = cursorOf(s.ws, s.file);
    assert.deepEqual([cursor.turns, cursor.contextTurns, cursor.contextOffset], [5, 1, lineEnds(s.file)[0]]);
    s.say(AGREED);
    await microsync(s.ws, AFTER);
    assert.deepEqual(
      citations(s.ws).filter((l) => l.includes('message_range')),
      ['  - message_range: 5-6'],
    );
  });
});

describe('a reply read by the run after its proposal, with an LLM', () => {
  let llm: OpenAIServer;
  before(async () => {
    llm = await startOpenAIServer();
  });
  after(() => llm.close());

  /** A stand-in model: a user's "Yes" after a proposal it can see (context or not) is a Rule citing both turns. */
  function agreeing(body: ChatRequestBody) {
    const turns = promptTurns(body);
    const proposal = turns.find((x) => x.role === 'assistant' && /^Shall we/.test(x.text));
    const yes = turns.find((x) => x.role === 'user' && /^Yes/.test(x.text));
    if (!proposal || !yes) return { entries: [] };
    const entry = wireEntry({
      kind: 'Rule',
      title: 'LLM: cap uploads at 25 MB',
      conclusion: 'Uploads are capped at 25 MB.',
      confidence: 0.8,
      first_turn: proposal.index,
      last_turn: yes.index,
    });
    return { entries: [entry] };
  }

  test('the resumed request carries the proposal as context, and the entry cites only the reply', async (t) => {
    llm.chat.handler = agreeing;
    const s = sessionWorkspace(t, 'jsonl');
    editConfig(s.ws, (cfg) => (cfg.llm = { baseURL: llm.url, model: 'test-model', timeoutMs: 2000, maxRetries: 0 }));
    s.say(...ASKED);
    await microsync(s.ws, BETWEEN);
    assert.equal(llm.chat.requests.length, 1);

    s.say(AGREED);
    await microsync(s.ws, AFTER);
    assert.equal(llm.chat.requests.length, 2);
    const prompt = (llm.chat.requests[1]!.body as ChatRequestBody).messages.find((m) => m.role === 'user')!.content;
    const [context, batch] = prompt.split('## Turns to extract from');
    assert.match(
      context!,
      /## Context \(already processed: read it, never cite it\)\n\[1\] user: What limit should uploads have\?\n\[2\] assistant: Shall we cap uploads at 25 MB\?\n/,
    );
    assert.match(batch!, /^ \(indexes 3-3\)\n\[3\] user: Yes, agreed\.$/);
    assert.deepEqual(citations(s.ws), [
      '## Rule: LLM: cap uploads at 25 MB',
      '- id: RULE-20261122-llm-cap-uploads-at-25-mb',
      '  - message_range: 3-3',
      '- origin: user',
    ]);
  });

  test('a cursor the budget stopped inside a batch keeps where its own context began', async (t) => {
    llm.chat.handler = agreeing;
    llm.requests.length = 0;
    const s = sessionWorkspace(t, 'jsonl');
    editConfig(
      s.ws,
      (cfg) =>
        (cfg.llm = {
          baseURL: llm.url,
          model: 'test-model',
          timeoutMs: 2000,
          maxRetries: 0,
          turnsPerCall: 5,
          maxCallsPerRun: 1,
        }),
    );
    s.say(...EARLY, ...ASKED, AGREED);
    const first = await mem(['-C', s.ws, 'microsync', '--now', AFTER]);
    assert.equal(first.code, 0, first.stderr);
    const cursor = cursorOf(s.ws, s.file);
    assert.deepEqual(
      [cursor.turns, cursor.contextTurns, cursor.contextOffset],
      [5, 1, lineEnds(s.file)[0]],
      'stopped after turn 5, its context from turn 2',
    );

    await microsync(s.ws, AFTER);
    const prompt = (llm.chat.requests.at(-1)!.body as ChatRequestBody).messages.find((m) => m.role === 'user')!.content;
    assert.match(
      prompt,
      /\[5\] assistant: Shall we cap uploads at 25 MB\?\n\n## Turns to extract from \(indexes 6-6\)/,
    );
    assert.deepEqual(
      citations(s.ws).filter((l) => l.includes('message_range')),
      ['  - message_range: 6-6'],
    );
  });
});

describe('the turns before a cursor', () => {
  test('a read with toOffset yields exactly the turns ending at or before it, numbered on from fromIndex', async () => {
    const FALLBACK = '2026-11-22T00:00:00.000Z';
    for (const kind of ['claude-code', 'codex', 'openclaw', 'jsonl', 'markdown'] as SourceKind[]) {
      for (const path of await listTranscriptFiles(kind, join(FIXTURES, kind), '/')) {
        const all = await collect(openTranscript(path, kind, { fallbackTimestamp: FALLBACK }));
        // Line starts: after the last turn of a line (or the file's start).
        const starts = [
          { offset: 0, turns: 0 },
          ...all
            .filter((x, i) => all[i + 1]?.endOffset !== x.endOffset)
            .map((x) => ({ offset: x.endOffset, turns: x.index })),
        ];
        for (const from of starts) {
          for (const to of starts.filter((s) => s.offset >= from.offset).slice(0, 3)) {
            const stream = openTranscript(path, kind, {
              fromOffset: from.offset,
              toOffset: to.offset,
              fromIndex: from.turns,
              fallbackTimestamp: FALLBACK,
              toolNames: {},
            });
            const got = (await collect(stream)).map(({ index, role, endOffset }) => ({ index, role, endOffset }));
            const want = all
              .filter((x) => x.index > from.turns && x.index <= to.turns)
              .map(({ index, role, endOffset }) => ({ index, role, endOffset }));
            assert.deepEqual(got, want, `${kind} ${path} from ${from.offset} to ${to.offset}`);
          }
        }
      }
    }
  });

  test('ContextMarks: where the lines of the last turns begin, a line of several turns whole, and what it may forget', () => {
    const turn = (index: number, endOffset: number) => ({ index, endOffset }) as Turn;
    const marks = new ContextMarks({ offset: 100, turns: 10 }, 2);
    [turn(11, 150), turn(12, 200), turn(13, 200), turn(14, 260), turn(15, 300)].forEach((x) => marks.add(x));
    assert.deepEqual(marks.before(15), { offset: 200, turns: 13 });
    assert.deepEqual(
      marks.before(14),
      { offset: 150, turns: 11 },
      'turn 13 shares its line with 12: the line is taken whole',
    );
    assert.deepEqual(marks.before(12), { offset: 100, turns: 10 });
    assert.deepEqual(marks.before(11), { offset: 100, turns: 10 }, 'fewer turns than kept: the known start');
    marks.forget(14);
    assert.deepEqual(marks.before(14), { offset: 150, turns: 11 }, 'a cursor at the floor still finds its start');
    assert.deepEqual(marks.before(15), { offset: 200, turns: 13 });
  });
});
