/**
 * revisionTarget (src/jobs/microsync/revision-target.ts) through planEntries: a revision or a
 * retraction names the entry it means by what it says (the replaced term, "back to X", a day, a
 * named decision), within its scope and key; naming nothing, it stays unlinked.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { getField, type Entry } from '../src/entries/model.js';
import { entryFromCandidate, planEntries, type PlanInput } from '../src/jobs/microsync/plan.js';
import type { Known } from '../src/jobs/microsync/scope-link.js';

type Planned = PlanInput['candidates'][number];

function cand(title: string, over: Partial<Planned> = {}): Planned {
  return {
    kind: 'Decision',
    title,
    conclusion: title,
    confidence: 0.9,
    origin: 'user',
    revises: true,
    sessionId: 's1',
    sessionPath: '/s1.jsonl',
    sessionPathStored: '~/s1.jsonl',
    firstTurn: 3,
    lastTurn: 3,
    timestamp: '2026-11-18T10:00:00Z',
    day: '2026-11-18',
    ...over,
  };
}

function known(id: string, title: string, over: Partial<Planned> = {}): Known {
  const entry: Entry = entryFromCandidate(cand(title, { sessionId: 'old', revises: false, ...over }), id);
  return { id, entry };
}

/** What the planned entry replaces: `supersedes` for a revision, `retracts` for a retraction. */
const supersedes = (c: Planned, existing: Known[]) => {
  const e = planEntries({ candidates: [c], existing }).entries[0]!.entry;
  return getField(e, c.retracting ? 'retracts' : 'supersedes');
};

const SQLITE = known('DECISION-20261116-store-todos-in-sqlite-for-now', 'Store todos in SQLite for now', {
  day: '2026-11-16',
});
const REDIS = known('DECISION-20261116-use-redis-for-the-session-cache', 'Use Redis for the session cache', {
  day: '2026-11-16',
});
const MONDAY = known(
  'DECISION-20261116-switch-the-queue-from-rabbitmq-to-sqs',
  'Switch the queue from RabbitMQ to SQS',
  { day: '2026-11-16' },
);
const TUESDAY = known('DECISION-20261117-move-the-queue-workers-to-sqs', 'Move the queue workers to SQS', {
  day: '2026-11-17',
});

describe('a revision names what it revises', () => {
  test('the replaced term after "instead of", "rather than", "drop", "from … to", "而不是", "把…改成"', () => {
    for (const said of [
      'Use Postgres instead of SQLite',
      'Use Postgres rather than SQLite',
      'Drop SQLite, use Postgres',
      'Move the todos from SQLite to Postgres',
    ]) {
      assert.equal(supersedes(cand(said), [REDIS, SQLITE]), SQLITE.id, said);
    }
    const zh = known('DECISION-20261116-用-sqlite-存待办事项', '用 SQLite 存待办事项', { day: '2026-11-16' });
    assert.equal(supersedes(cand('改用 Postgres 而不是 SQLite'), [REDIS, zh]), zh.id);
    assert.equal(supersedes(cand('把 SQLite 改成 Postgres'), [REDIS, zh]), zh.id);
  });

  test('"go back to X" names the entry that mentions X; "Monday\'s decision" an entry of that day', () => {
    assert.equal(supersedes(cand('Go back to RabbitMQ'), [REDIS, MONDAY]), MONDAY.id);
    const both = cand("Go back to RabbitMQ. This replaces Monday's decision");
    assert.equal(
      supersedes(both, [
        MONDAY,
        known('DECISION-20261117-keep-rabbitmq-for-retries', 'Keep RabbitMQ for retries', { day: '2026-11-17' }),
      ]),
      MONDAY.id,
    );
    assert.equal(
      supersedes(cand("Keep SQS for the workers. This replaces Tuesday's decision"), [MONDAY, TUESDAY]),
      TUESDAY.id,
    );
  });

  test('naming what no entry holds, or a word of another scope or key, links nothing', () => {
    assert.equal(supersedes(cand('Use Meilisearch instead of Algolia'), [REDIS, SQLITE]), undefined);
    assert.equal(
      supersedes(cand('Use Postgres instead of SQLite', { scope: 'project:b' }), [
        known(SQLITE.id, 'Store todos in SQLite for now', { day: '2026-11-16', scope: 'project:a' }),
      ]),
      undefined,
    );
    assert.equal(
      supersedes(cand('Use Postgres instead of SQLite', { key: 'decision:app:database' }), [
        known(SQLITE.id, 'Store todos in SQLite for now', { day: '2026-11-16', key: 'decision:app:cache' }),
      ]),
      undefined,
    );
    assert.equal(supersedes(cand('Use Postgres instead of that'), [SQLITE]), undefined, '"that" names nothing');
    assert.equal(
      supersedes(cand('Use Postgres instead of SQLite', { revises: false }), [SQLITE]),
      undefined,
      'only a revision looks',
    );
  });

  test('a retraction names the entry in force that holds its words, of the kind it names', () => {
    const rule = known('RULE-20261116-no-redis-calls-in-request-handlers', 'No Redis calls in request handlers', {
      kind: 'Rule',
      day: '2026-11-16',
    });
    assert.equal(supersedes(cand('Forget the Redis decision', { retracting: true }), [rule, REDIS]), REDIS.id);
    assert.equal(supersedes(cand('Forget the Kafka decision', { retracting: true }), [rule, REDIS]), undefined);
    const zh = known('DECISION-20261116-我们决定用-redis-缓存', '我们决定用 Redis 缓存', { day: '2026-11-16' });
    assert.equal(supersedes(cand('算了，不要用 Redis 了', { retracting: true }), [zh]), zh.id);
  });
});

describe('a task state update names the open task (issue 27)', () => {
  const task = (over: Partial<Planned> = {}) => ({
    kind: 'Task' as const,
    revises: false,
    scope: 'project:shop',
    ...over,
  });
  const pool = [
    known(
      'TASK-20261117-build-the-signup-page',
      'Build the signup page with email verification',
      task({ day: '2026-11-17', state: 'todo' }),
    ),
    known('TASK-20261117-rotate-the-api-keys', 'Rotate the API keys', task({ day: '2026-11-17', state: 'todo' })),
  ];
  test('"the signup task is done" replaces the signup task', () =>
    assert.equal(
      supersedes(cand('Great, the signup task is done', task({ state: 'done' })), pool),
      'TASK-20261117-build-the-signup-page',
    ));
  test('"blocked on the API keys task" replaces that task', () =>
    assert.equal(
      supersedes(cand("I'm blocked on the API keys task until ops replies", task({ state: 'blocked' })), pool),
      'TASK-20261117-rotate-the-api-keys',
    ));
  test('a task naming none of them links nothing', () =>
    assert.equal(supersedes(cand('The billing task is done', task({ state: 'done' })), pool), undefined));
  test('another scope links nothing', () =>
    assert.equal(
      supersedes(cand('The signup task is done', task({ state: 'done', scope: 'project:other' })), pool),
      undefined,
    ));
});

describe('"this replaces the X decision" names the decision about X (issue 27)', () => {
  const pool = [
    known('DECISION-20261118-the-admin-app-uses-vue', 'The admin app uses Vue', { day: '2026-11-18' }),
    known('DECISION-20261118-ci-runs-on-github-actions', 'CI runs on GitHub Actions', { day: '2026-11-18' }),
  ];
  test('the decision holding the named term', () =>
    assert.equal(
      supersedes(
        cand('We decided to go back to Svelte for the admin app. This replaces the Vue decision from this morning'),
        pool,
      ),
      'DECISION-20261118-the-admin-app-uses-vue',
    ));
  test('naming a term no entry holds links nothing by name', () =>
    assert.equal(supersedes(cand('Use Svelte. This replaces the Angular decision'), pool), undefined));
});

describe('a revision naming nothing revises what was said just before it in its session', () => {
  const POLL = known('ARCH-20261118-notify-polls-the-jobs-table', '通知服务每 5 秒轮询一次任务表', {
    kind: 'Architecture',
    sessionId: 's1',
    firstTurn: 1,
    lastTurn: 1,
    scope: 'project:a',
  });
  const OTHER = known('ARCH-20261115-search-split-from-postgres', 'Search split out of Postgres', {
    kind: 'Architecture',
    sessionId: 'other',
    key: 'decision:a:database',
    scope: 'project:a',
    day: '2026-11-15',
  });

  test("the same session's statement one exchange back, before another session's entry with the same key", () => {
    const fix = cand('改成用 Postgres 的 LISTEN/NOTIFY', {
      kind: 'Architecture',
      key: 'decision:a:database',
      scope: 'project:a',
      corrects: true,
    });
    assert.equal(supersedes(fix, [OTHER, POLL]), POLL.id);
    // Another session, or too far back in this one: not "just before".
    assert.equal(supersedes({ ...fix, sessionId: 's2' }, [POLL]), undefined);
    assert.equal(supersedes({ ...fix, firstTurn: 9, lastTurn: 9 }, [POLL]), undefined);
    // Not a correction and sharing no word with it: not about the same thing.
    assert.equal(supersedes({ ...fix, corrects: undefined }, [POLL]), undefined);
  });

  test('a moved goal replaces the goal before it and keeps its key', () => {
    const goal = known('GOAL-20261118-launch-in-germany-in-q2', '目标是二季度在德国上线', {
      kind: 'Goal',
      sessionId: 's1',
      firstTurn: 1,
      lastTurn: 1,
      key: 'goal:a:launch-in-germany-in-q2',
      scope: 'project:a',
    });
    const moved = cand('改成三季度在德国上线', { kind: 'Goal', key: 'goal:a:q3', scope: 'project:a' });
    const e = planEntries({ candidates: [moved], existing: [goal] }).entries[0]!.entry;
    assert.deepEqual([getField(e, 'supersedes'), getField(e, 'key')], [goal.id, 'goal:a:launch-in-germany-in-q2']);
  });
});

describe('a task state update named by its first clause', () => {
  test('"The Postgres driver upgrade is blocked, v9 breaks our pooler" and "Postgres 驱动升级卡住了，…" update the open task', () => {
    const en = known('TASK-20261118-upgrade-the-postgres-driver-to-v9', 'Upgrade the Postgres driver to v9', {
      kind: 'Task',
      state: 'todo',
    });
    assert.equal(
      supersedes(
        cand('The Postgres driver upgrade is blocked, v9 breaks our connection pooler', {
          kind: 'Task',
          state: 'blocked',
          revises: false,
        }),
        [en],
      ),
      en.id,
    );
    const zh = known('TASK-20261118-把-postgres-驱动升级到-v9', '把 Postgres 驱动升级到 v9', {
      kind: 'Task',
      state: 'todo',
    });
    assert.equal(
      supersedes(
        cand('Postgres 驱动升级卡住了，v9 跟我们的连接池不兼容', { kind: 'Task', state: 'blocked', revises: false }),
        [zh],
      ),
      zh.id,
    );
  });
});

describe('just before, but about the same thing', () => {
  test('"日志改用 pino" right after "缓存用 Redis" in the same session revises nothing', () => {
    const redis = known('DECISION-20261118-缓存用-redis', '缓存用 Redis', {
      sessionId: 's1',
      firstTurn: 1,
      lastTurn: 1,
    });
    assert.equal(supersedes(cand('日志改用 pino'), [redis]), undefined);
    assert.equal(supersedes(cand('缓存改用 Memcached'), [redis]), redis.id);
  });
});
