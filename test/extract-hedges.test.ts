/**
 * A plain statement inside an unsettled frame (hedges.ts): the frame said in another sentence of the
 * same message, in either Chinese script from one lexicon, or by someone else. Each wrapper beside
 * its settled twin, which still lands; and a strong statement held open by the sentence after it.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { foldHan } from '../src/extract/han-fold.js';
import { holdsOpen, notNow, othersPractice, unsettledBy } from '../src/extract/hedges.js';
import { extract } from './helpers/rule-turns.js';

const titles = (text: string) => extract(['user', text]).map((c) => `${c.kind}: ${c.title}`);

describe('the hedge lexicon', () => {
  test('Traditional text folds to Simplified, full-width to ASCII, so one lexicon reads both scripts', () => {
    assert.equal(foldHan('還沒定，先這樣試試？'), '还没定,先这样试试?');
    assert.equal(foldHan('Ｔｅｃｈ Lead'), 'tech lead');
    for (const [hans, hant] of [
      ['还没定', '還沒定'],
      ['先这样试试', '先這樣試試'],
      ['听同事说', '聽同事說'],
      ['等老板拍板', '等老闆拍板'],
      ['只是随口说说', '只是隨口說說'],
    ]) {
      assert.ok(unsettledBy(hans!), hans);
      assert.equal(unsettledBy(hant!), unsettledBy(hans!), hant);
    }
  });

  test('each kind of frame is named; a plain statement has none', () => {
    assert.equal(unsettledBy('你覺得這樣行嗎？'), 'question');
    assert.equal(unsettledBy('这样可以吗'), 'question');
    assert.equal(unsettledBy('效果不好再看看'), 'undecided');
    assert.equal(unsettledBy('先部署上去跑跑看'), 'undecided');
    assert.equal(unsettledBy("Not final, we'll see after the spike."), 'undecided');
    assert.equal(unsettledBy('老實說我也拿不準。'), 'guess');
    assert.equal(unsettledBy('預算批下來的話再說'), 'undecided');
    assert.equal(unsettledBy('預算批下來的話'), 'conditional');
    assert.equal(unsettledBy('Grafana 或者 Datadog 都行'), 'guess');
    assert.equal(unsettledBy('Grafana 或者 Datadog'), 'options');
    assert.equal(unsettledBy('有兩個方案：'), 'options');
    assert.equal(unsettledBy('聽隔壁組說的'), 'hearsay');
    assert.equal(unsettledBy('Infra 组说要这样'), 'hearsay');
    assert.equal(unsettledBy('PM 那邊還沒 sign off'), 'pending');
    assert.equal(unsettledBy('等 Tech Lead 確認'), 'pending');
    assert.equal(unsettledBy('開玩笑的啦'), 'undecided');
    assert.equal(unsettledBy('我覺得這樣比較好'), 'guess');
    assert.equal(unsettledBy('比如說監控'), 'options');
    assert.equal(unsettledBy('客戶要求這樣'), 'hearsay');
    assert.equal(unsettledBy('PR 描述裡寫著'), 'hearsay');
    assert.equal(unsettledBy('不過聽你的'), 'guess');
    assert.equal(unsettledBy('換作是我'), 'conditional');
    assert.equal(unsettledBy('Ideally the build is green'), 'conditional');
    assert.equal(unsettledBy('還在評估中'), 'undecided');
    assert.equal(unsettledBy('不用啦，我剛剛只是想測一下'), 'guess');
    assert.equal(unsettledBy('no no, I was just practising'), 'guess');
    assert.equal(unsettledBy('那份 style guide 寫著'), 'hearsay');
    assert.equal(unsettledBy('這不是我們的'), 'hearsay');
    assert.equal(unsettledBy("that's her call"), 'hearsay');
    for (const plain of [
      '缓存层用 Memcached。',
      '正式環境部署到 Fly.io。',
      'Rate limiter 的 store 用 KeyDB.',
      '尽可能用 Redis 缓存。',
    ])
      assert.equal(unsettledBy(plain), undefined, plain);
  });

  test('a sentence that holds the one before it open: undecided or pending, not a mere guess', () => {
    assert.ok(holdsOpen('不過還要跟架構組確認一下。'));
    assert.ok(holdsOpen('先這樣試試。'));
    assert.ok(!holdsOpen('吞吐可能会好一点。'));
  });

  test("someone else's practice before the statement", () => {
    assert.ok(othersPractice('隔壁組的報表服務都'));
    assert.ok(othersPractice('我們的服務很穩，他們'));
    assert.ok(othersPractice('Other teams '));
    assert.ok(!othersPractice('我們的分析報表'));
    // Someone else's liking or wish, whoever it is; the user's own stays theirs.
    for (const before of ['小王比較喜歡', '我同事更想', '組長希望', 'Kai 習慣', '小王堅持'])
      assert.ok(othersPractice(before), before);
    for (const before of ['我也比較喜歡', '我比較想', '我們一般', '我的偏好是', '我習慣', '我們堅持'])
      assert.ok(!othersPractice(before), before);
    assert.ok(othersPractice('Kai 的偏好是'));
  });

  test('the past or a negation before the statement', () => {
    for (const before of ['以前快取', '原來部署', '我們以前', '我們不打算', '沒必要', 'We used to '])
      assert.ok(notNow(before), before);
    for (const before of ['不同的服務都', '不管哪個環境都', '沒問題，', '我們']) assert.ok(!notNow(before), before);
  });
});

describe('a plain statement lands only when nothing in its message leaves it open', () => {
  const pairs: [string, string, string][] = [
    // [what must not land, its settled twin, the twin's entry]
    [
      '这周日志库先换成 pino 跑跑看。效果不好就换回 winston。',
      '日志库换成 pino，输出 JSON。',
      'Decision: 日志库换成 pino，输出 JSON',
    ],
    ['缓存层用 Memcached。你觉得这样行吗？', '缓存层用 Memcached。', 'Decision: 缓存层用 Memcached'],
    ['預算批下來的話，搜尋改用 Elasticsearch。', '搜尋改用 Elasticsearch。', 'Decision: 搜尋改用 Elasticsearch'],
    ['監控可以用 Grafana 或者 Datadog。', '監控用 Grafana。', 'Decision: 監控用 Grafana'],
    [
      '前端狀態管理用 Zustand。等 Tech Lead 確認後再定案。',
      '前端狀態管理用 Zustand。',
      'Decision: 前端狀態管理用 Zustand',
    ],
    ['隔壁組的報表服務都用 Pinot。', '我們的報表服務用 Pinot。', 'Decision: 我們的報表服務用 Pinot'],
    [
      '目標是下個月把錯誤率降到 0.1%。老實說我也拿不準。',
      '目標是下個月把錯誤率降到 0.1%。',
      'Goal: 下個月把錯誤率降到 0.1%',
    ],
    ['新项目我更想用 Deno。不过团队习惯 Node，再讨论吧。', '新项目我更想用 Deno。', 'Preference: 更想用 Deno'],
    ["Session store 先用 Valkey. We'll see.", 'Session store 先用 Valkey.', 'Decision: Session store 先用 Valkey'],
    ['Q3 的 goal 是 API p99 < 300ms. PM 那边还没 sign off.', 'Q3 的 goal 是 API p99 < 300ms.', 'Goal: API p99 < 300ms'],
    ['以前快取用 Memcached，後來出過事。', '快取用 Memcached。', 'Decision: 快取用 Memcached'],
    [
      '小王比较喜欢用 Prettier 默认配置。',
      '我比较喜欢用 Prettier 默认配置。',
      'Preference: 比较喜欢用 Prettier 默认配置',
    ],
    ['我們以前部署在 Heroku，後來搬走了。', '我們部署在 Heroku。', 'Decision: 我們部署在 Heroku'],
    ['我比較喜歡用 Vim 鍵位，不過聽你的。', '我比較喜歡用 Vim 鍵位。', 'Preference: 比較喜歡用 Vim 鍵位'],
    ['換作是我，我會用 Ruff 做程式碼檢查。', '程式碼檢查用 Ruff。', 'Decision: 程式碼檢查用 Ruff'],
    ['Kai 的偏好是用 tabs.', '我的偏好是用 tabs.', 'Preference: 我的偏好是用 tabs'],
    [
      '那份 style guide 写着 always 用 tabs 缩进，不是我们的。',
      '我们的缩进统一用 tabs。',
      'Preference: 我们的缩进统一用 tabs',
    ],
    ['Kai 习惯用 Sublime 写代码，那是他的事。', '我习惯用 Sublime 写代码。', 'Preference: 习惯用 Sublime 写代码'],
    [
      '快取有兩種做法：\n- 用 Redis 存 session\n- 用 Memcached 存 session',
      '快取用 Redis 存 session。',
      'Decision: 快取用 Redis 存 session',
    ],
    ['我们不打算用 Kafka。', '我们用 Kafka。', 'Decision: 我们用 Kafka'],
    ['客户要求报表导出用 Excel。', '报表导出用 Excel。', 'Decision: 报表导出用 Excel'],
    ['会议纪要是“队列先不动，等压测结果”。消息队列用 NATS。', '消息队列用 NATS。', 'Architecture: 消息队列用 NATS'],
  ];
  for (const [open, settled, lands] of pairs) {
    test(open, () => {
      assert.deepEqual(titles(open), []);
      assert.deepEqual(titles(settled), [lands]);
    });
  }

  test('a settled statement or a standing request beside it leaves a plain statement alone', () => {
    assert.deepEqual(titles('缓存用 Redis。以后改缓存配置之前，能不能先跟我说一声？'), [
      'Decision: 缓存用 Redis',
      'Rule: 改缓存配置之前，先跟我说一声',
    ]);
    assert.deepEqual(titles('我们决定用 Redis 做缓存。另外你那边能连上测试库吗？'), ['Decision: 用 Redis 做缓存']);
  });

  test("a yes that holds the agent's proposal open confirms nothing", () => {
    const turns = (reply: string) =>
      extract(['assistant', '以后 commit message 要不要都用 Conventional Commits 格式？'], ['user', reply]).map(
        (c) => c.kind,
      );
    assert.deepEqual(turns('可以，就这么办。'), ['Rule']);
    for (const hold of ['好，我再想想。', '好的，等老闆確認一下。', 'ok, let me think about it'])
      assert.deepEqual(turns(hold), [], hold);
  });

  test('a statement with a word of deciding is held open by the sentence after it, or a clause of its own', () => {
    assert.deepEqual(titles('我们决定用 Kafka 传审计事件。不过还要跟架构组确认一下。'), []);
    assert.deepEqual(titles("We'll use Temporal for the onboarding workflows. Let's see how it goes."), []);
    assert.deepEqual(titles('我们决定用 Kafka 传审计事件。吞吐可能会好一点。'), ['Decision: 用 Kafka 传审计事件']);
    // …or by a clause of its own sentence; a blocked task's wait is its state, not a hold.
    assert.deepEqual(titles('我们决定用 Vector 收日志，先这样试试。'), []);
    assert.deepEqual(titles('Decision: move the docs site to Astro, pending sign-off from design.'), []);
    assert.deepEqual(titles('Decision: move the docs site to Astro.'), ['Decision: Move the docs site to Astro']);
    assert.deepEqual(
      titles('The nightly backups move is blocked, the bucket policy is still pending.').map((t) => t.split(':')[0]),
      ['Task'],
    );
  });
});
