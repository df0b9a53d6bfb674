/**
 * How the offline extractor reads a message's text: a hard-wrapped paragraph is one run of
 * sentences, not a sentence per line; words in quotes are someone else's. Unit cases on sentences() and extractWithRules, then
 * `mem microsync` (the built CLI as a child process) on real temp workspaces.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { extractWithRules } from '../src/extract/rules.js';
import { sentences } from '../src/extract/sentences.js';
import type { Role, Turn } from '../src/transcripts/index.js';
import { dailyText, mem, transcriptWorkspace } from './helpers/cli.js';

const said = (...specs: Array<[Role, string]>) =>
  extractWithRules(
    specs.map(([role, text], i): Turn => ({
      sessionId: 's',
      sessionPath: '/s.jsonl',
      index: i + 1,
      role,
      text,
      timestamp: '2026-11-21T10:00:00Z',
      endOffset: i + 1,
    })),
  ).map((c) => `${c.kind}: ${c.title}`);

const line = (session: string, i: number, role: Role, content: string) =>
  JSON.stringify({ role, content, timestamp: `2026-11-21T10:0${i}:00Z`, session_id: session });

/** One JSONL transcript per conversation, so no conversation's turns run into another's. */
function writeSessions(tr: string, conversations: Array<Array<[Role, string]>>): void {
  conversations.forEach((turns, n) =>
    writeFileSync(
      join(tr, `c${n}.jsonl`),
      turns.map(([role, text], i) => line(`c${n}`, i, role, text)).join('\n') + '\n',
    ),
  );
}

async function microsync(ws: string): Promise<string> {
  const r = await mem(['-C', ws, 'microsync', '--now', '2026-11-21T12:00:00Z']);
  assert.equal(r.code, 0, r.stderr);
  return dailyText(ws);
}

describe('a soft line break does not end a sentence', () => {
  const cases: Array<[string, string[]]> = [
    [
      'never force-push to main unless\nthe release manager approved it',
      ['never force-push to main unless the release manager approved it'],
    ],
    ['wrapped\r\n  and indented.\nNext one. Third!', ['wrapped and indented.', 'Next one.', 'Third!']],
    ['Steps:\n- build\n* test\n+ lint\n1. tag\n2) push', ['Steps:', 'build', 'test', 'lint', 'tag', 'push']],
    ['# Heading\ntext under it\n\nnew paragraph', ['# Heading', 'text under it', 'new paragraph']],
    ['| a | b |\n| 1 | 2 |\nafter the table', ['| a | b |', '| 1 | 2 |', 'after the table']],
    ['before the fence\n```\ncode\n```\nafter', ['before the fence', '```', 'code', '```', 'after']],
    ['before the quote\n> quoted\nafter', ['before the quote', '> quoted', 'after']],
    ['从现在开始，所有接口\n都要写测试。下一句', ['从现在开始，所有接口都要写测试。', '下一句']],
    ['我们决定，\n用 pnpm\n管理依赖', ['我们决定，用 pnpm 管理依赖']],
    ['日本語の\nテキスト', ['日本語のテキスト']],
  ];
  for (const [text, expected] of cases) test(JSON.stringify(text), () => assert.deepEqual(sentences(text), expected));

  test('a wrapped statement keeps its exception, in English and Chinese', () => {
    assert.deepEqual(said(['user', 'From now on, never force-push to main unless\nthe release manager approved it.']), [
      'Rule: Never force-push to main unless the release manager approved it',
    ]);
    assert.deepEqual(said(['user', '从现在开始，除非发布经理批准，\n否则不要强推 main。']), [
      'Rule: 除非发布经理批准，否则不要强推 main',
    ]);
    assert.deepEqual(said(['user', 'never force-push to main unless\nthe release manager approved it']), [
      'Rule: Never force-push to main unless the release manager approved it',
    ]);
  });

  test('a > quote between two lines keeps them apart', () => {
    assert.deepEqual(
      said(['user', 'We decided to use Redis for sessions\n> pasted: from now on skip review\nthanks for the help']),
      ['Decision: Use Redis for sessions'],
    );
  });

  test('mem microsync stores the whole wrapped rule from a Markdown transcript', async (t) => {
    const { ws, tr } = await transcriptWorkspace(t, 'markdown');
    const transcript = [
      '---',
      'session_id: wrap',
      '---',
      '',
      '## user · 2026-11-21T10:00:00Z',
      '',
      'From now on, never force-push to main unless',
      'the release manager approved it.',
      '',
      '## assistant · 2026-11-21T10:00:10Z',
      '',
      'Understood.',
      '',
    ].join('\n');
    writeFileSync(join(tr, 'wrap.md'), transcript);
    const day = await microsync(ws);
    assert.match(day, /^## Rule: Never force-push to main unless the release manager approved it$/m);
    assert.match(day, /^- conclusion: Never force-push to main unless the release manager approved it$/m);
  });
});

describe('quoted words are not a statement', () => {
  test('a quotation stays one sentence, however many it holds', () => {
    assert.deepEqual(sentences('He said "Stop. Now." Then we left.'), ['He said "Stop. Now."', 'Then we left.']);
    assert.deepEqual(sentences('他说「先停。马上。」我们走了。'), ['他说「先停。马上。」', '我们走了。']);
  });

  test('a marker inside quotes makes no entry; quotes inside a statement stay in it', () => {
    for (const text of [
      'He said "we always deploy on Fridays. From now on, no exceptions." I disagree.',
      'he said "we decided to always deploy on Fridays"',
      'He wrote “remember this: the VPN is optional”.',
      '他说「以后周五不发版」，我不同意。',
    ]) {
      assert.deepEqual(said(['user', text]), [], text);
    }
    assert.deepEqual(said(['user', 'From now on, error bodies say "retry later".']), [
      'Rule: Error bodies say "retry later"',
    ]);
    assert.deepEqual(said(['user', 'We decided to label the button "Not sure".']), [
      'Decision: Label the button "Not sure"',
    ]);
  });

  test('a proposal the assistant only quotes is not one the user can confirm', () => {
    assert.deepEqual(
      said(['assistant', 'The old runbook says "let\'s cap uploads at 25 MB". It is out of date.'], ['user', 'ok']),
      [],
    );
  });

  test('mem microsync writes nothing for a quoted decision, and the real one next to it', async (t) => {
    const { ws, tr } = await transcriptWorkspace(t, 'jsonl');
    writeSessions(tr, [
      [['user', 'he said "from now on we always deploy on Fridays" - that is quoting him, not deciding.']],
      [['user', 'From now on, we never deploy on Fridays.']],
    ]);
    const day = await microsync(ws);
    assert.match(day, /^## Rule: We never deploy on Fridays$/m);
    assert.doesNotMatch(day, /always deploy/);
  });
});

describe('a reply that takes its yes back confirms nothing', () => {
  const PROPOSAL = 'The endpoint has no limit. Shall we cap uploads at 25 MB?';
  const declines = [
    'Ok, but not yet',
    'Yeah, no',
    'sure?',
    'Sure, just asking',
    'just asking',
    'Yes, 30 MB instead',
    'ok, wait',
    'Sure, later.',
    '好，但先别',
    '好的，等等',
    '可以，不过先不改',
    '算了',
    '不对',
    'he said "yes, go ahead"',
  ];
  const confirms = [
    'yes, do that',
    'ok',
    'sounds good, go ahead',
    'Yes, no problem',
    'Sure, why not',
    'Yes, do that. Can you also add a test?',
    '好的',
    '就这么定了',
    '可以，就这么办。',
  ];
  for (const reply of declines)
    test(`declines: ${reply}`, () => assert.deepEqual(said(['assistant', PROPOSAL], ['user', reply]), []));
  for (const reply of confirms)
    test(`confirms: ${reply}`, () =>
      assert.deepEqual(said(['assistant', PROPOSAL], ['user', reply]), ['Rule: Cap uploads at 25 MB']));

  test('mem microsync writes the confirmed proposals and none of the declined ones', async (t) => {
    const { ws, tr } = await transcriptWorkspace(t, 'jsonl');
    const replies = [...declines, ...confirms];
    writeSessions(
      tr,
      replies.map((reply, n): Array<[Role, string]> => [
        ['assistant', `Shall we cap uploads at ${n + 1} MB?`],
        ['user', reply],
      ]),
    );
    const day = await microsync(ws);
    const written = [...day.matchAll(/^## Rule: Cap uploads at (\d+) MB$/gm)].map((m) => replies[Number(m[1]) - 1]);
    assert.deepEqual(written.sort(), [...confirms].sort());
  });
});

describe('"scratch that" takes back the statement before it: dropped in its own message, retracted from the next', () => {
  const RULE = 'From now on, deploy only on Tuesdays.';
  const dropped: Array<[string, Array<[Role, string]>]> = [
    ['same sentence', [['user', 'From now on, deploy only on Tuesdays, scratch that.']]],
    ['same turn', [['user', `${RULE} Scratch that.`]]],
    ['算了', [['user', '以后周五不发版。算了。']]],
  ];
  for (const [name, turns] of dropped) test(`drops: ${name}`, () => assert.deepEqual(said(...turns), []));

  // Issue 27: said in the next message, after the agent acted on it, a retraction gives `retracted`: the statement
  // stays and a new entry of its kind retracts it (compound flips the old one).
  const retracted: Array<[string, Array<[Role, string]>, string]> = [
    [
      'next user turn',
      [
        ['user', RULE],
        ['assistant', 'Got it.'],
        ['tool', 'ok'],
        ['user', 'scratch that'],
      ],
      'Rule: Deploy only on Tuesdays',
    ],
    [
      'never mind, forget that',
      [
        ['user', RULE],
        ['assistant', 'Got it.'],
        ['user', 'Never mind, forget that.'],
      ],
      'Rule: Deploy only on Tuesdays',
    ],
    [
      "that's wrong",
      [
        ['user', 'We decided to add GraphQL.'],
        ['assistant', 'Starting on the schema.'],
        ['user', "That's wrong, we're not adding it."],
      ],
      'Decision: Add GraphQL',
    ],
    [
      'a confirmed proposal',
      [
        ['assistant', 'Shall we cap uploads at 25 MB?'],
        ['user', 'Yes.'],
        ['assistant', 'Done.'],
        ['user', 'No, scratch that.'],
      ],
      'Rule: Cap uploads at 25 MB',
    ],
    [
      '不对, next turn',
      [
        ['user', '以后周五不发版。'],
        ['assistant', '好的。'],
        ['user', '不对，当我没说'],
      ],
      'Rule: 周五不发版',
    ],
    [
      '刚才那个不对',
      [
        ['user', '记住，演示环境的域名是 demo2.example.cn'],
        ['assistant', '记下了。'],
        ['user', '刚才那个不对，忘掉那条'],
      ],
      'Note: 演示环境的域名是 demo2.example.cn',
    ],
  ];
  for (const [name, turns, statement] of retracted) {
    test(`retracts: ${name}`, () => {
      const [kind, title] = statement.split(': ');
      assert.deepEqual(said(...turns), [statement, `${kind}: Retracted: ${title}`]);
      assert.equal(
        extractWithRules(
          turns.map(([role, text], i): Turn => ({
            sessionId: 's',
            sessionPath: '/s.jsonl',
            index: i + 1,
            role,
            text,
            timestamp: '2026-11-21T10:00:00Z',
            endOffset: i + 1,
          })),
        ).at(-1)?.retracting,
        true,
      );
    });
  }

  test('only the last statement goes, and what follows the retraction stands', () => {
    assert.deepEqual(said(['user', 'From now on, tag releases. We decided to use pnpm. Scratch that.']), [
      'Rule: Tag releases',
    ]);
    assert.deepEqual(said(['user', '以后用 tabs。不对，以后用空格。']), ['Rule: 用空格']);
  });

  test('a retraction followed by a new statement in the next turn is a correction: both stay, the new one revises', () => {
    const turns: Array<[Role, string]> = [
      ['user', RULE],
      ['assistant', 'Got it.'],
      ['user', 'Oh wait, never mind. From now on we deploy on Wednesdays.'],
    ];
    assert.deepEqual(said(...turns), ['Rule: Deploy only on Tuesdays', 'Rule: We deploy on Wednesdays']);
    const last = extractWithRules(
      turns.map(([role, text], i): Turn => ({
        sessionId: 's',
        sessionPath: '/s.jsonl',
        index: i + 1,
        role,
        text,
        timestamp: '2026-11-21T10:00:00Z',
        endOffset: i + 1,
      })),
    ).at(-1);
    assert.equal(last?.corrects, true);
    assert.equal(last?.retracting, undefined);
  });

  test('a retraction of something else, or not one at all, keeps the statement', () => {
    assert.deepEqual(
      said(
        ['user', 'From now on, tag releases.'],
        ['assistant', 'OK.'],
        ['user', 'Maybe from now on tabs. Scratch that.'],
      ),
      ['Rule: Tag releases'],
      'it takes back the guess',
    );
    assert.deepEqual(
      said(
        ['user', 'From now on, tag releases.'],
        ['assistant', 'Shall we cap uploads at 25 MB?'],
        ['user', 'Yes. Scratch that.'],
      ),
      ['Rule: Tag releases'],
      'it takes back the yes',
    );
    assert.deepEqual(
      said(
        ['user', 'From now on, tag releases.'],
        ['assistant', 'OK.'],
        ['user', 'From now on, sign commits.'],
        ['assistant', 'OK.'],
        ['user', 'forget that'],
      ),
      ['Rule: Tag releases', 'Rule: Sign commits', 'Rule: Retracted: Sign commits'],
      'one turn back, not two',
    );
    assert.deepEqual(said(['user', 'Never mind the tests, from now on we ship on Fridays.']), [
      'Rule: We ship on Fridays',
    ]);
    assert.deepEqual(said(['user', "Don't forget that the VPN drops at midnight."]), [
      'Note: The VPN drops at midnight',
    ]);
    assert.deepEqual(said(['user', '以后周五不发版。'], ['assistant', '好的。'], ['user', '这个报错不对劲。']), [
      'Rule: 周五不发版',
    ]);
  });

  test('mem microsync writes nothing taken back in its own message, and a retraction entry naming what the next message takes back', async (t) => {
    const { ws, tr } = await transcriptWorkspace(t, 'jsonl');
    writeSessions(tr, [
      [
        ['user', 'From now on, deploy only on Tuesdays.'],
        ['assistant', 'Got it.'],
        ['user', 'scratch that'],
      ],
      [['user', 'We decided to use Kafka for events. Never mind.']],
      [
        ['user', '以后周五不发版。'],
        ['assistant', '好的。'],
        ['user', '算了'],
      ],
      [['user', 'From now on, sign every commit.']],
    ]);
    const day = await microsync(ws);
    const titles = [...day.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    assert.deepEqual(titles.sort(), [
      'Rule: Deploy only on Tuesdays',
      'Rule: Retracted: Deploy only on Tuesdays',
      'Rule: Retracted: 周五不发版',
      'Rule: Sign every commit',
      'Rule: 周五不发版',
    ]);
    assert.ok(!day.includes('Kafka'), 'taken back in its own message: never written');
    const ids = [...day.matchAll(/^- id: (\S+)$/gm)].map((m) => m[1]!);
    const retracts = [...day.matchAll(/^- retracts: (\S+)$/gm)].map((m) => m[1]!);
    assert.equal(retracts.length, 2);
    for (const id of retracts)
      assert.ok(ids.includes(id) && !/RETRACTED/i.test(id), `retracts names a written entry: ${id}`);
  });
});

describe('a rule needs no "from now on"', () => {
  test('mem microsync stores the README examples that open with Always, Never or 规定, and no habit or fact', async (t) => {
    const { ws, tr } = await transcriptWorkspace(t, 'jsonl');
    const rules = [
      'never force-push to main unless\nthe release manager approved it',
      'Never deploy on Fridays.',
      'Always run the linter before pushing.',
      '规定：所有接口都要写单元测试。',
    ];
    writeSessions(tr, [
      ...rules.map((text): Array<[Role, string]> => [['user', text]]),
      [
        ['user', 'Never mind.'],
        ['user', 'I never use tabs.'],
        ['user', 'It always fails on CI.'],
      ],
    ]);
    const day = await microsync(ws);
    assert.deepEqual([...day.matchAll(/^## (.+)$/gm)].map((m) => m[1]).sort(), [
      'Rule: Always run the linter before pushing',
      'Rule: Never deploy on Fridays',
      'Rule: Never force-push to main unless the release manager approved it',
      'Rule: 所有接口都要写单元测试',
    ]);
  });
});
