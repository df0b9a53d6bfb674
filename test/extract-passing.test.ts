/**
 * Choices, shapes, duties and work in progress said in passing (src/extract/passing-forms.ts and the
 * mechanisms probe batches 7 and 8 taught: a plan in the passive, a named product in use, a pick
 * announced, two parts and what sits between them, work under way after its subject, a plain choice
 * said with an obligation is a rule, a yes of one word to an offer, "Scratch X, …" correcting), each
 * beside what must still land nothing (someone else's plan, the past, a lower-case "using the old one").
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { extract, type Spec } from './helpers/rule-turns.js';

const kindOf = (...specs: Spec[]) => extract(...specs).map((c) => c.kind);
const said = (text: string) => kindOf(['user', text]);

describe('said in passing', () => {
  test('a choice in the passive, a product in use, a pick announced, 定 and a name: decisions', () => {
    for (const text of [
      'ok so the mobile app will be built with Expo.',
      "For auth we're using Clerk.",
      'Final pick for charts is Recharts.',
      'We are deploying the API on Fly.',
      '图表库定 ECharts。',
      'Hosting will be on Vercel.',
      'We use Stripe for payments.',
      'Settled: Terraform for infra.',
      '表单校验就交给 Zod。',
    ])
      assert.deepEqual(said(text), ['Decision'], text);
    // Lower case, no name: nothing chosen; 决定/确定 are the older markers' business, not this form's.
    assert.deepEqual(said('We are using the old approach.'), []);
    assert.deepEqual(said("we're using Redux wrong"), []);
    assert.deepEqual(said('Maybe we use Stripe for payments.'), []);
    assert.deepEqual(said('Bob said hosting will be on Vercel.'), []);
  });

  test('two parts and what sits between them, a part kept in a named store: architecture', () => {
    for (const text of [
      '订单和支付之间通过 Kafka 解耦。',
      '用户上传的文件统一存 OSS，数据库只存路径。',
      '网关后面挂三个服务：用户、订单、商品。',
      '前後端之間用 GraphQL 溝通。',
      '所有 cron job 都跑在 Cloud Run 上。',
    ])
      assert.deepEqual(said(text), ['Architecture'], text);
  });

  test('work under way or stuck after its subject is a task with its state', () => {
    const task = (text: string) => extract(['user', text]).map((c) => `${c.kind}:${c.state}`);
    assert.deepEqual(task('Still stuck on the iOS build, waiting for the Apple certificate.'), ['Task:blocked']);
    assert.deepEqual(task('Stripe webhook 那块我在弄了。'), ['Task:doing']);
    assert.deepEqual(task('Migration script 还卡着，等 DBA 回复。'), ['Task:blocked']);
    assert.deepEqual(task('我已经开始写导入脚本了。'), ['Task:doing']);
    assert.deepEqual(task('待办加一条：补 README 的部署说明。'), ['Task:todo']);
    // Progress said of the work itself, with its state; someone's word or a guess about it is not progress.
    assert.deepEqual(task('The export endpoint is in progress.'), ['Task:doing']);
    assert.deepEqual(task("I'm halfway through the billing refactor."), ['Task:doing']);
    assert.deepEqual(task('The webhook retry PR is merged.'), ['Task:done']);
    assert.deepEqual(task('报表页做了一半。'), ['Task:doing']);
    assert.deepEqual(task('搜尋功能上線了。'), ['Task:done']);
    assert.deepEqual(task('金流那塊等銀行回覆中。'), ['Task:blocked']);
    assert.deepEqual(task('Bob said the search page shipped.'), []);
    assert.deepEqual(task('I think the PR is merged'), []);
  });

  test('a plain choice said with an obligation is a rule; asking to be emailed first is a rule', () => {
    assert.deepEqual(said('正式環境的金鑰只能放在 Secret Manager。'), ['Rule']);
    assert.deepEqual(said('Email me a summary before you merge anything big.'), ['Rule']);
  });

  test('someone else plan, the past before a choice: nothing', () => {
    assert.deepEqual(said('The data team plans to move their jobs to Prefect.'), []);
    assert.deepEqual(said('之前 CI 是用 Travis 跑的。'), []);
  });

  test('a one-word yes to an offer confirms it; "Scratch X, …" corrects the statement before', () => {
    assert.deepEqual(kindOf(['assistant', '要不要我把日志改成结构化输出（用 pino）？'], ['user', '要，改吧']), [
      'Decision',
    ]);
    const out = extract(
      ['user', "We'll deploy the API on Render."],
      ['assistant', 'Okay.'],
      ['user', 'Scratch Render, we are deploying the API on Fly instead.'],
    );
    assert.equal(out.length, 2);
    assert.equal(out[1]!.revises, true);
    assert.match(out[1]!.conclusion, /Fly/);
  });
});
