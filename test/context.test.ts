/** `mem context`: layers and their limits, the exact token budget, summaries when tight, never a replaced entry. */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { mem, tempDir } from './helpers/cli.js';
import { daily, entry, files, markdownOnly, workspace } from './fixtures/governance/workspace.js';

const NOW = ['--now', '2026-11-20T12:00:00Z'];
const pad = (n: number) => String(n).padStart(2, '0');
const KAFKA_OLD = 'DECISION-20261105-use-kafka-for-the-event-bus';
const NATS = 'DECISION-20261106-use-nats-jetstream-for-messaging';
const RETRACTED = 'NOTE-20261107-kafka-retention-is-seven-days';
const OLD_KEY = 'DECISION-20261118-shop-database-is-mysql';
const NEW_KEY = 'DECISION-20261119-shop-database-is-postgresql';

function fixture(t: { after(fn: () => void): void }): string {
  const core = Array.from({ length: 12 }, (_, i) =>
    entry({
      id: `RULE-202611${pad(i + 1)}-core-rule-${i + 1}`,
      title: `Core rule ${i + 1}`,
      date: `2026-11-${pad(i + 1)}`,
      fields: {
        conclusion: `core rule number ${i + 1} always applies`,
        scope: 'global',
        ...(i % 2 ? { core: 'true' } : { weight: String(9 + (i % 4 === 0 ? 1 : 0)) }),
      },
    }),
  );
  const scope = Array.from({ length: 7 }, (_, i) =>
    entry({
      id: `DECISION-202611${pad(i + 1)}-shop-choice-${i + 1}`,
      title: `Shop choice ${i + 1}`,
      date: `2026-11-${pad(i + 1)}`,
      fields: {
        why: `the reason behind shop choice ${i + 1} is written out at some length so that a full entry costs clearly more tokens than its summary`,
        conclusion: `shop choice ${i + 1} holds`,
        scope: 'project:shop',
      },
    }),
  );
  const notes = Array.from({ length: 7 }, (_, i) =>
    entry({
      id: `NOTE-202611${pad(i + 1)}-kafka-note-${i + 1}`,
      title: `Kafka note ${i + 1}`,
      date: `2026-11-${pad(i + 1)}`,
      fields: {
        why: `kafka detail ${i + 1}: partitions, consumer groups and offsets explained in a long sentence for the budget`,
        conclusion: `kafka fact ${i + 1}`,
      },
    }),
  );
  return workspace(t, {
    'memory/2026-11-01.md': daily('2026-11-01', [...core, ...scope, ...notes]),
    'memory/2026-11-05.md': daily('2026-11-05', [
      entry({
        id: KAFKA_OLD,
        title: 'Use Kafka for the event bus',
        date: '2026-11-05',
        fields: { conclusion: 'kafka kafka kafka event bus', status: 'superseded', scope: 'project:shop' },
      }),
      entry({
        id: NATS,
        title: 'Use NATS JetStream for messaging',
        date: '2026-11-06',
        fields: { conclusion: 'JetStream replaces the old broker', supersedes: KAFKA_OLD },
      }),
      entry({
        id: RETRACTED,
        title: 'Kafka retention is seven days',
        date: '2026-11-07',
        fields: { conclusion: 'kafka kafka retention', status: 'retracted', scope: 'project:shop' },
      }),
      entry({
        id: OLD_KEY,
        title: 'Shop database is MySQL',
        date: '2026-11-18',
        fields: { conclusion: 'mysql', key: 'decision:shop:db', scope: 'project:shop' },
      }),
      entry({
        id: NEW_KEY,
        title: 'Shop database is PostgreSQL',
        date: '2026-11-19',
        fields: { conclusion: 'postgresql', key: 'decision:shop:db', scope: 'project:shop' },
      }),
    ]),
  });
}

type Item = { layer: number; form: string; id: string; path: string; startLine: number; endLine: number };
const run = async (ws: string, args: string[], opts = {}) => {
  const r = await mem(['-C', ws, ...NOW, 'context', '--format', 'json', ...args], opts);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as {
    tokens: number;
    budget: number;
    overBudget: boolean;
    scope: string;
    items: Item[];
    omitted: { id: string }[];
    text: string;
  };
};
const layer = (items: Item[], n: number) => items.filter((i) => i.layer === n);

describe('mem context', { concurrency: 3 }, () => {
  test('a roomy budget: every global core rule, scope ≤ 5 decisions, query ≤ 5, all full, cited, marker-wrapped, exact token count', async (t) => {
    const ws = fixture(t);
    const md = files(ws, markdownOnly);
    const r = await run(ws, ['--scope', 'project:shop', '--query', 'kafka event bus', '--budget', '20000']);
    assert.deepEqual(
      [0, 1, 2].map((n) => layer(r.items, n).length),
      [12, 5, 5],
      JSON.stringify(r.items),
    );
    assert.ok(r.items.every((i) => i.form === 'full'));
    assert.equal(r.tokens, countTokens(r.text));
    assert.ok(r.tokens <= 20000);
    assert.ok(r.text.startsWith('<memfold-context>\n') && r.text.endsWith('</memfold-context>\n'));
    for (const i of r.items)
      assert.ok(r.text.includes(`${i.id} · ${i.path}:${i.startLine}-${i.endLine}`), `cites ${i.id}`);
    // Core: the highest weight first (weight 10).
    assert.ok(
      layer(r.items, 0)
        .slice(0, 3)
        .every((i) =>
          ['RULE-20261101-core-rule-1', 'RULE-20261105-core-rule-5', 'RULE-20261109-core-rule-9'].includes(i.id),
        ),
    );
    // Scope: newest first; the same key keeps only the newer entry.
    assert.deepEqual(
      layer(r.items, 1).map((i) => i.id),
      [
        NEW_KEY,
        'DECISION-20261107-shop-choice-7',
        'DECISION-20261106-shop-choice-6',
        'DECISION-20261105-shop-choice-5',
        'DECISION-20261104-shop-choice-4',
      ],
    );
    // Query: the superseded Kafka decision is a hit, but its chain's active end appears instead.
    assert.ok(
      layer(r.items, 2).some((i) => i.id === NATS),
      `${NATS} in ${JSON.stringify(layer(r.items, 2))}`,
    );
    for (const hidden of [KAFKA_OLD, RETRACTED, OLD_KEY])
      assert.ok(!r.text.includes(hidden), `${hidden} must never appear`);
    // A read: Markdown unchanged, one use-log line naming what was included.
    assert.deepEqual(files(ws, markdownOnly), md);
    const usage = readFileSync(join(ws, '.mem/usage.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual(
      usage.map((u) => [u.kind, u.via, u.ids.length]),
      [['traverse', 'context', 22]],
    );
  });

  test("--format json echoes the query redacted, as the pack is (the query is often the agent's prompt)", async (t) => {
    const ws = fixture(t);
    const token = `ghp_${'Zq8RmT4vXw2YbN6cLp0sKd3FhJ7gA1bC2dE3'}`;
    const r = await run(ws, ['--scope', 'project:shop', '--query', `kafka retention, my token is ${token}`]);
    const out = r as unknown as { query: string };
    assert.match(out.query, /^kafka retention, my token is \[REDACTED:[a-z-]+\]$/);
    assert.ok(!JSON.stringify(r).includes(token));
  });

  test('a tight budget: summaries (title + conclusion) instead of full entries, never over the budget', async (t) => {
    const ws = fixture(t);
    const coreOnly = await run(ws, ['--scope', 'project:none', '--budget', '50']);
    assert.equal(coreOnly.overBudget, true);
    assert.deepEqual(
      coreOnly.items.map((i) => i.layer),
      Array(12).fill(0),
    );
    const budget = coreOnly.tokens + 160;
    const r = await run(ws, ['--scope', 'project:shop', '--query', 'kafka event bus', '--budget', String(budget)]);
    assert.equal(r.tokens, countTokens(r.text));
    assert.ok(r.tokens <= budget, `${r.tokens} <= ${budget}`);
    const rest = r.items.filter((i) => i.layer > 0);
    const summaries = rest.filter((i) => i.form === 'summary');
    assert.ok(summaries.length >= 2, `several summaries fit where full entries would not: ${JSON.stringify(r.items)}`);
    // Every long entry that made it in is a summary; leftover room may upgrade a short one to full.
    assert.ok(
      rest.filter((i) => /shop-choice|kafka-note/.test(i.id)).every((i) => i.form === 'summary'),
      JSON.stringify(rest),
    );
    assert.ok(
      layer(r.items, 0).every((i) => i.form === 'full'),
      'core rules are always whole',
    );
    assert.match(
      r.text,
      /\n- Decision: Shop choice 7 — shop choice 7 holds \(DECISION-20261107-shop-choice-7 · memory\/2026-11-01\.md:\d+-\d+\)\n/,
    );
    assert.ok(!r.text.includes('the reason behind shop choice'), 'no full scope entry');
    assert.equal(r.omitted.length, 10 - rest.length);
    // Summaries of every item would fit a budget a little larger; full entries would not fit that one.
    const roomy = await run(ws, ['--scope', 'project:shop', '--query', 'kafka event bus', '--budget', '20000']);
    assert.ok(roomy.tokens > budget);
  });

  test('an agent in a project folder: MEM_WORKSPACE finds the memory, the folder name gives the scope', async (t) => {
    const ws = fixture(t);
    const project = join(tempDir(t), 'shop');
    mkdirSync(project);
    const r = await mem([...NOW, 'context', '--json'], { cwd: project, env: { MEM_WORKSPACE: ws } });
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.scope, 'project:shop');
    assert.equal(out.items.filter((i: Item) => i.layer === 1).length, 5);
    const md = await mem([...NOW, 'context'], { cwd: project, env: { MEM_WORKSPACE: ws } });
    assert.equal(md.stdout, out.text, '--format md prints exactly the pack text');
  });

  test('two remembers of one key on one day: the pack keeps the one compound will keep, whichever id sorts first', async (t) => {
    const ws = workspace(t, {});
    for (const text of ['Use pnpm, not npm', 'Use yarn, not pnpm']) {
      const r = await mem([
        '-C',
        ws,
        ...NOW,
        'remember',
        text,
        '--kind',
        'decision',
        '--key',
        'decision:shop:package-manager',
        '--scope',
        'project:shop',
      ]);
      assert.equal(r.code, 0, r.stderr);
    }
    const pack = await run(ws, ['--scope', 'project:shop']);
    assert.deepEqual(
      pack.items.map((i) => i.id),
      ['DECISION-20261120-use-yarn-not-pnpm'],
    );
    const trace = JSON.parse((await mem(['-C', ws, '--json', 'trace', 'DECISION-20261120-use-pnpm-not-npm'])).stdout);
    assert.equal(trace.current, 'DECISION-20261120-use-yarn-not-pnpm');
    const plan = await mem(['-C', ws, '--now', '2026-11-23T05:00:00Z', 'compound', '--dry-run']);
    assert.match(plan.stdout, /DECISION-20261120-use-pnpm-not-npm.*DECISION-20261120-use-yarn-not-pnpm/);
  });
});

describe('mem context: a pack worth injecting at session start', { concurrency: 3 }, () => {
  const D = '2026-11-10';
  const many = (
    n: number,
    kind: string,
    prefix: string,
    scope: string,
    extra: (i: number) => Record<string, string> = () => ({}),
  ) =>
    Array.from({ length: n }, (_, i) =>
      entry({
        kind,
        id: `${prefix}-202611${pad(i + 1)}-${kind.toLowerCase()}-${i + 1}`,
        title: `${kind} ${i + 1}`,
        date: `2026-11-${pad(i + 1)}`,
        fields: { conclusion: `${kind} ${i + 1} holds`, scope, ...extra(i) },
      }),
    );
  const PROMOTED = 'RULE-20261109-never-force-push';
  const OTHER_PROMOTED = 'RULE-20261109-other-project-rule';
  const packFixture = (t: { after(fn: () => void): void }) =>
    workspace(t, {
      'MEMORY.md': [
        '# MEMORY',
        '',
        '<!-- mem:pinned:start -->',
        'Always answer in English; the team reads every thread.',
        '<!-- mem:pinned:end -->',
        '',
        '## Core rules',
        '',
        `- Never force-push ([${PROMOTED}](memory/${D}.md#rule-never-force-push))`,
        `- Other project rule ([${OTHER_PROMOTED}](memory/${D}.md#rule-other-project-rule))`,
        '',
      ].join('\n'),
      [`memory/${D}.md`]: daily(D, [
        entry({
          id: PROMOTED,
          title: 'Never force-push',
          date: D,
          fields: { conclusion: 'never force-push to shared branches', scope: 'project:shop' },
        }),
        entry({
          id: OTHER_PROMOTED,
          title: 'Other project rule',
          date: D,
          fields: { conclusion: 'only for the blog', scope: 'project:blog' },
        }),
        entry({
          id: 'RULE-20261109-unscoped-rule',
          title: 'Unscoped rule',
          date: D,
          fields: { conclusion: 'no scope at all', core: 'true' },
        }),
        entry({
          id: 'RULE-20261109-blog-rule',
          title: 'Blog rule',
          date: D,
          fields: { conclusion: 'blog only', scope: 'project:blog' },
        }),
        entry({
          id: 'RULE-20261109-agent-said-so',
          title: 'Agent said so',
          date: D,
          fields: { conclusion: 'an agent proposal nobody confirmed', scope: 'global', origin: 'agent' },
        }),
        entry({
          kind: 'Preference',
          id: 'PREF-20261109-short-commit-messages',
          title: 'Short commit messages',
          date: D,
          fields: { conclusion: 'I prefer short commit messages', scope: 'global', key: 'pref:git:commit-style' },
        }),
        ...many(17, 'Rule', 'RULE', 'project:shop'),
        ...many(12, 'Task', 'TASK', 'project:shop', (i) => ({ key: `task:shop:t${i + 1}`, state: 'todo' })),
        entry({
          kind: 'Task',
          id: 'TASK-20261125-task-1-done',
          title: 'Task 1 done',
          date: '2026-11-25',
          fields: { conclusion: 'task 1 is done', scope: 'project:shop', key: 'task:shop:t1', state: 'done' },
        }),
        ...many(6, 'Goal', 'GOAL', 'project:shop'),
        ...many(6, 'Decision', 'DECISION', 'project:shop'),
      ]),
    });

  test('layer 0: pinned text, promotions of this project, global rules and preferences; layer 1 per kind within its limits', async (t) => {
    const ws = packFixture(t);
    const r = await run(ws, ['--scope', 'project:shop', '--budget', '50000']);
    const ids = (n: number) => layer(r.items, n).map((i) => i.id);
    assert.ok(r.text.includes('Always answer in English; the team reads every thread.'), 'pinned text verbatim');
    assert.ok(r.text.indexOf('Always answer in English') < r.text.indexOf(PROMOTED), 'pinned text first');
    assert.deepEqual(ids(0), [PROMOTED, 'PREF-20261109-short-commit-messages']);
    for (const never of [
      OTHER_PROMOTED,
      'RULE-20261109-unscoped-rule',
      'RULE-20261109-blog-rule',
      'RULE-20261109-agent-said-so',
    ]) {
      assert.ok(!r.text.includes(never), `${never} is not in this project's pack`);
    }
    const kinds = layer(r.items, 1).map((i) => r.items.find((x) => x.id === i.id)!.id.split('-')[0]);
    const count = (p: string) => kinds.filter((k) => k === p).length;
    assert.deepEqual([count('RULE'), count('TASK'), count('GOAL'), count('DECISION')], [15, 10, 5, 5]);
    // Task 1's newest entry says done: neither it nor its todo entry is an open task.
    assert.ok(!ids(1).some((id) => /task-1(-done)?$/.test(id)), JSON.stringify(ids(1)));
  });

  test('an empty workspace says how to fill it; -v prints the token count on stderr', async (t) => {
    const ws = workspace(t, {});
    const r = await mem(['-C', ws, ...NOW, '-v', 'context', '--scope', 'project:shop']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /No memories for this session yet\. To fill them: `mem microsync --since all`/);
    assert.match(r.stderr, /^context: 0 items, \d+ of 2000 tokens \([^)]*o200k_base\), scope project:shop$/m);
  });
});
