/**
 * Everyday ways of settling things with none of the older markers' words (src/extract/plain-markers.ts,
 * issue 27 item 4): how the system is now, plain prohibitions, choices said in passing, tastes in a
 * few words, targets with a measure, task progress, notes, a cause then its fix; corrections opened
 * by "Change of plan:", "Actually, …" or "不对，<subject>改成…" that link to what they correct; and what
 * still lands nothing (a question, a guess, someone else's move, a one-off, a description of trouble).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { getField } from '../src/entries/model.js';
import { planEntries } from '../src/jobs/microsync/plan.js';
import { extract } from './helpers/rule-turns.js';

const kinds = (text: string) => extract(['user', text]).map((c) => `${c.kind}: ${c.title}`);
const kindOf = (text: string) => kinds(text).map((k) => k.split(':')[0]);

describe('everyday phrasings land as their kind', () => {
  test('how the system is now is architecture, in English, 简体, 繁體 and mixed', () => {
    for (const text of [
      'Auth lives in its own service now.',
      'The API now goes through a gateway; clients never hit the services directly.',
      "We're switching the job queue from Redis to SQS.",
      'Reads go to the replica and writes go to the primary.',
      'Billing has been split out of the main app and runs as its own deployment.',
      "Let's put Nginx in front of the app servers.",
      '消息队列从 Redis 换成了 RabbitMQ。',
      '所有請求現在都先經過 API 閘道。',
      'Search 现在 backed by Meilisearch。',
    ])
      assert.deepEqual(kindOf(text), ['Architecture'], text);
    // Two parts and how they relate, but a decision naming the same parts stays a decision.
    assert.deepEqual(kindOf('We decided to use Redis for the cache.'), ['Decision']);
    assert.deepEqual(kinds('We decided to move the billing cron to 02:00.'), [
      'Decision: Move the billing cron to 02:00',
    ]);
  });

  test('plain prohibitions and duties are rules; choices, tastes, targets, progress and notes their kinds', () => {
    const cases: Array<[string, string]> = [
      ["Don't merge without a green CI run.", 'Rule'],
      ['No force-pushes on shared branches.', 'Rule'],
      ['Ask me before deleting any branch.', 'Rule'],
      ['Nobody merges their own PR.', 'Rule'],
      ['Release branches are frozen every Thursday.', 'Rule'],
      ['不要直接往 main 分支推代码。', 'Rule'],
      ['OK, Tailwind it is.', 'Decision'],
      ['We ended up choosing Clerk for auth.', 'Decision'],
      ['最後選了 Firebase。', 'Decision'],
      ['Tabs, not spaces.', 'Preference'],
      ["I'm a fan of small functions over big classes.", 'Preference'],
      ["Let's aim for 80% test coverage on the core package.", 'Goal'],
      ['这个月要把首屏时间降到 1 秒以内。', 'Goal'],
      ['Keep in mind: the prod database is in eu-west-1.', 'Note'],
    ];
    for (const [text, kind] of cases) assert.deepEqual(kindOf(text), [kind], text);
    const states = (text: string) => extract(['user', text]).map((c) => `${c.kind} ${c.state}`);
    assert.deepEqual(states('I finished the login page.'), ['Task done']);
    assert.deepEqual(states("I'm stuck on the SSO integration until IT sends the metadata URL."), ['Task blocked']);
    assert.deepEqual(states("I've started the Postgres 16 upgrade."), ['Task doing']);
    assert.deepEqual(states('短信验证码这块已经搞定了。'), ['Task done']);
    assert.deepEqual(states('金流串接卡關了，銀行那邊還沒回。'), ['Task blocked']);
  });

  test('a cause said plainly and its fix in the next sentence are one lesson', () => {
    const [c, ...rest] = extract([
      'user',
      'The memory leak came from an event listener we never removed. Removing it in the cleanup hook fixed it.',
    ]);
    assert.equal(rest.length, 0);
    assert.equal(c?.kind, 'Lesson');
    assert.match(c!.conclusion, /event listener.*cleanup hook fixed it/);
  });
});

describe('what still lands nothing', () => {
  test('questions, guesses, someone else’s move, one-offs, trouble and idioms', () => {
    for (const text of [
      'Is the API going through the gateway now?',
      'My guess is the workers read from the replica, but check.',
      'They moved their queue to SQS last year.',
      "Don't push yet, I'm still reviewing the diff.",
      'If the vendor API goes down, jobs pile up in the queue.',
      'Going with the flow today, nothing planned.',
      'You must be tired of this bug by now.',
      '要不要把订单服务拆出来？',
      'FYI the bot token is in the vault, not a rule, just for now.',
      // Progress someone else reports, or guessed, or asked about without a question mark.
      '我以为登录页已经做完了。',
      '小李说报表导出做好了。',
      '支付页应该做完了吧。',
      '文档写完了没',
      'I thought the invoice export was done already.',
    ])
      assert.deepEqual(kinds(text), [], text);
  });
});

describe('corrections said in the next message', () => {
  test('"Change of plan:", "Actually, …" and 不对，<subject>改成… correct, keep their own kind, and link to what they correct', () => {
    const said = (first: string, second: string) => extract(['user', first], ['assistant', 'OK.'], ['user', second]);
    const arch = said(
      'Sessions are stored in Redis now.',
      "Change of plan: sessions go in Postgres, we don't want another piece of infra.",
    );
    assert.deepEqual(
      arch.map((c) => `${c.kind} ${c.corrects === true}`),
      ['Architecture false', 'Architecture true'],
    );
    const soft = said(
      'Thumbnails are generated inside the upload request.',
      'Actually, thumbnails should be generated by a background worker instead of inside the request.',
    );
    assert.deepEqual(
      soft.map((c) => c.kind),
      ['Architecture', 'Architecture'],
    );
    assert.equal(soft[1]!.corrects, true);
    const zh = said('报表先直接查主库。', '不对，报表改成查只读副本，不要查主库。');
    assert.equal(zh.length, 2, 'the first statement is corrected, not taken back');
    // The planner links a correction to the statement just before it, with no revision word left in its text.
    const plan = planEntries({
      candidates: arch.map((c) => ({ ...c, day: '2026-11-21', sessionPathStored: '~/s1.jsonl' })),
      existing: [],
    });
    assert.equal(getField(plan.entries[1]!.entry, 'supersedes'), plan.entries[0]!.id);
  });
});
