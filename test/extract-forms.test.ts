/**
 * Settled statements known by their sentence's form (src/extract/sentence-forms.ts, issue 27's second
 * held-out round): lower-case, unpunctuated, terse messages the older markers never saw; a short reply
 * to the agent's ack that corrects the user's statement ("wait no, vitest", "改成七月") and links to it;
 * confirmations typed the way people type ("yup", "加吧"); and the guards that keep questions, the
 * past, other people's words and reactions out. Pure: extractWithRules and the planner, no CLI.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { getField } from '../src/entries/model.js';
import { extractWithRules } from '../src/extract/rules.js';
import { planEntries } from '../src/jobs/microsync/plan.js';
import { extract, type Spec } from './helpers/rule-turns.js';

const kindOf = (text: string) => extract(['user', text]).map((c) => c.kind);

describe('statements by the form of their sentence', () => {
  const lands: Array<[string, string]> = [
    ['we are gonna host the marketing site on netlify', 'Decision'],
    ['use vitest', 'Decision'],
    ['switch the logger to pino', 'Decision'],
    ['decided to drop IE11 support', 'Decision'],
    ['ok so i talked to sarah and we agreed, postgres it is for the analytics db', 'Decision'],
    ['no console.log in committed code', 'Rule'],
    ['make sure migrations are reversible', 'Rule'],
    ['keep functions under 50 lines', 'Rule'],
    ['pls always add types to function params', 'Rule'],
    ['PR 合并前要至少两个 approve', 'Rule'],
    ['auth is handled by clerk, we dont store passwords at all', 'Architecture'],
    ['everything talks over grpc internally, only the edge speaks json', 'Architecture'],
    ['we use a queue between the api and the mailer', 'Architecture'],
    ['設定檔放在 Consul', 'Architecture'],
    ['所有 request 先过 Envoy', 'Architecture'],
    ['用户表按 user_id 分片', 'Architecture'],
    ['日志统一打到 stdout，由 Fluent Bit 收集', 'Architecture'],
    ['prefer named exports pls', 'Preference'],
    ['i like tabs', 'Preference'],
    ['answers in english pls', 'Preference'],
    ['can u keep the explanations brief, i dont need the essay every time', 'Preference'],
    ['縮排兩格就好', 'Preference'],
    ['我不喜欢太长的函数', 'Preference'],
    ['target is zero sev1 incidents this half', 'Goal'],
    ['aiming for 1s page loads', 'Goal'],
    ['月底前測試覆蓋率要到 75%', 'Goal'],
    ['年底前會員數要破五萬', 'Goal'],
    ['下季度要把 bug 数降一半', 'Goal'],
    ['deadline 是 5 月 20 号，一定要上线', 'Goal'],
    ['todo add e2e tests for checkout', 'Task'],
    ['finished migrating the users table 🎉', 'Task'],
    ['明天要處理退款流程', 'Task'],
    ['root cause of the double charges was a missing idempotency key, added one and it stopped', 'Lesson'],
    ['CI 一直壞是因為快取了舊的套件，清掉快取就過了，記取教訓', 'Lesson'],
    ['figured out the flaky test, it was a race in the setup, added an await', 'Lesson'],
    ['查到原因了，是 connection pool 太小，調大就好了', 'Lesson'],
    ['fyi the api rate limit is 100 req/min', 'Note'],
    ['btw staging 的 URL 是 stg.example.com，记一下', 'Note'],
    ['幫我記一下 staging 帳號是 admin', 'Note'],
  ];
  for (const [text, kind] of lands) test(`${kind}: ${text}`, () => assert.deepEqual(kindOf(text), [kind]));

  test('work under way is a task doing; a wait is its state, not a hedge', () => {
    for (const text of [
      '我开始弄导出 Excel 的功能了',
      '正在 fix webhook retry 的 bug',
      'still working on the search page',
      '在 debug 那个 memory leak',
      '我在弄購物車',
    ]) {
      assert.deepEqual(
        extract(['user', text]).map((c) => `${c.kind}/${c.state}`),
        ['Task/doing'],
        text,
      );
    }
    assert.deepEqual(
      extract(['user', 'payment webhook 卡住了，等 Stripe support 回复']).map((c) => c.state),
      ['blocked'],
    );
  });

  test('the title keeps the statement, not a trailing label', () => {
    assert.deepEqual(
      extract(['user', 'CI 一直壞是因為快取了舊的套件，清掉快取就過了，記取教訓']).map((c) => c.title),
      ['CI 一直壞是因為快取了舊的套件，清掉快取就過了'],
    );
  });
});

describe('what the forms leave alone', () => {
  for (const text of [
    'i like this approach',
    'use vitest? or jest?',
    'my coworker said use vitest',
    'if we had time id switch the logger to pino',
    'we r using pnpm workspaces, right?',
    'keep functions under 50 lines would be nice',
    'stop adding comments for now',
    '小王说配置放在 Apollo 比较好',
    '老板想月底前要到 5 万用户，我觉得不现实',
    '是不是所有请求都先过网关',
    '我们之前是用 Mongo 的',
    '月底前要不要把覆盖率提到 80%',
    '上次的教训是什么来着',
    'the root cause was discussed in the meeting but nobody agreed',
    'im working on the assumption that the cache is warm',
    '以后有机会的话支持多语言，现在不算目标',
    '規定的截止日期是週五。',
  ]) {
    test(`nothing: ${text}`, () => assert.deepEqual(extract(['user', text]), []));
  }
});

describe('corrections and confirmations typed as people type', () => {
  const corrections: Array<[Spec[], string]> = [
    [
      [
        ['user', 'we will use jest'],
        ['assistant', 'ok'],
        ['user', 'wait no, vitest'],
      ],
      'Decision',
    ],
    [
      [
        ['user', 'lets go with heroku'],
        ['assistant', 'ok'],
        ['user', 'on second thought, fly.io'],
      ],
      'Decision',
    ],
    [
      [
        ['user', 'tabs please'],
        ['assistant', 'ok'],
        ['user', 'ugh actually spaces'],
      ],
      'Preference',
    ],
    [
      [
        ['user', '用 yarn'],
        ['assistant', '好'],
        ['user', '不不不，pnpm'],
      ],
      'Preference',
    ],
    [
      [
        ['user', 'formatter 用 dprint'],
        ['assistant', 'OK。'],
        ['user', '算了 还是 Prettier 吧'],
      ],
      'Preference',
    ],
    [
      [
        ['user', '目标是 9 月发布 2.0'],
        ['assistant', '好的。'],
        ['user', '改一下，2.0 推迟到 10 月发布'],
      ],
      'Goal',
    ],
    [
      [
        ['user', '目標是六月上線'],
        ['assistant', '好'],
        ['user', '改成七月'],
      ],
      'Goal',
    ],
    [
      [
        ['user', 'goal 是 Q3 上 v2'],
        ['assistant', 'OK。'],
        ['user', 'update：v2 延到 Q4'],
      ],
      'Goal',
    ],
    [
      [
        ['user', 'use redis for sessions'],
        ['assistant', 'ok'],
        ['user', 'nvm, use memcached instead'],
      ],
      'Decision',
    ],
  ];
  for (const [turns, kind] of corrections) {
    test(`corrects, keeping the kind ${kind}: ${turns.at(-1)![1]}`, () => {
      const out = extract(...turns);
      assert.equal(out.length, 2);
      assert.deepEqual(
        out.map((c) => c.kind),
        [kind, kind],
      );
      assert.equal(out[1]!.corrects, true);
      const plan = planEntries({
        candidates: out.map((c) => ({ ...c, day: '2026-11-21', sessionPathStored: '~/s1.jsonl' })),
        existing: [],
      });
      assert.equal(
        getField(plan.entries[1]!.entry, 'supersedes'),
        plan.entries[0]!.id,
        'the correction supersedes what it corrects',
      );
    });
  }

  test('a task said done in another form of its verb moves the open task ("Migrating the user avatars is done now")', () => {
    const out = extract(
      ['user', 'Todo: migrate the user avatars to the new bucket.'],
      ['assistant', 'Added.'],
      ['user', 'Migrating the user avatars is done now.'],
    );
    assert.deepEqual(
      out.map((c) => `${c.kind}:${c.state}`),
      ['Task:todo', 'Task:done'],
    );
    const plan = planEntries({
      candidates: out.map((c) => ({ ...c, day: '2026-11-21', sessionPathStored: '~/s1.jsonl' })),
      existing: [],
    });
    assert.equal(getField(plan.entries[1]!.entry, 'supersedes'), plan.entries[0]!.id);
  });

  test('a reaction after the ack corrects nothing', () => {
    for (const reply of ['oh nice', 'wait what', 'ok thanks'])
      assert.equal(extract(['user', 'use redis for sessions'], ['assistant', 'ok'], ['user', reply]).length, 1, reply);
  });

  test('short yeses confirm the proposal, titled without the asking words', () => {
    const cases: Array<[string, string, string]> = [
      ['Want me to add a Dockerfile for local dev?', 'yup', 'Add a Dockerfile for local dev'],
      ['Should I migrate the tests to Vitest?', 'ya go ahead', 'Migrate the tests to Vitest'],
      [
        'I could move the cron jobs to a worker queue. Want that?',
        'yeah that sounds right',
        'Move the cron jobs to a worker queue',
      ],
      ['要不要我帮你加个 pre-commit hook？', 'ok 加吧', '加个 pre-commit hook'],
      ['我可以幫你把監控接到 Grafana，要做嗎？', '可以，麻煩你了', '把監控接到 Grafana'],
      ['我建议把 session 存到 Redis，可以吗？', '可以 就这么办', '把 session 存到 Redis'],
    ];
    for (const [offer, yes, title] of cases)
      assert.deepEqual(
        extract(['assistant', offer], ['user', yes]).map((c) => c.title),
        [title],
        offer,
      );
    assert.deepEqual(extract(['assistant', 'Want me to add a Dockerfile?'], ['user', 'k, wait, not yet']), []);
  });
});
