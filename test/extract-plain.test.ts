/**
 * Chinese statements said plainly, without "we decided" (issue 27 item 4, 简体/繁體/mixed): a named
 * tool chosen with 用/改用, a system's shape (a schedule and a shape word, a part split out), a
 * preference said with 想用/prefer, a goal moved, a decision taken back with 把…撤回, and what still
 * lands nothing: a question, a negation, someone else's preference.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { extract } from './helpers/rule-turns.js';

const kinds = (text: string) => extract(['user', text]).map((c) => `${c.kind}: ${c.title}`);

describe('plain Chinese statements', () => {
  test('a named tool chosen with 用 is a decision; about a user-level tool, a preference', () => {
    assert.deepEqual(kinds('接口文档先用 Swagger 生成。'), ['Decision: 接口文档先用 Swagger 生成']);
    assert.deepEqual(kinds('文件站我們用 Docusaurus 架。'), ['Decision: 文件站我們用 Docusaurus 架']);
    assert.deepEqual(kinds('这个仓库用 pnpm，别用 npm。'), ['Preference: 这个仓库用 pnpm，别用 npm']);
  });

  test('a shape said plainly is architecture', () => {
    assert.deepEqual(kinds('通知服务每 5 秒轮询一次任务表。'), ['Architecture: 通知服务每 5 秒轮询一次任务表']);
    assert.deepEqual(kinds('Sync job 每 10 分钟 poll 一次 CRM API。'), [
      'Architecture: Sync job 每 10 分钟 poll 一次 CRM API',
    ]);
    assert.equal(kinds('搜尋從 PostgreSQL 拆出來，改用獨立的 Meilisearch。')[0]?.split(':')[0], 'Architecture');
  });

  test('preferences with 想用 and prefer; a goal moved', () => {
    assert.deepEqual(
      kinds('新的測試我比較想用 Vitest，不要用 Jest。').map((s) => s.split(':')[0]),
      ['Preference'],
    );
    assert.deepEqual(
      kinds('新的 tests 我 prefer 用 node:test，不要 Mocha。').map((s) => s.split(':')[0]),
      ['Preference'],
    );
    const [goal] = extract(['user', '计划有变：目标改成三季度在德国上线。']);
    assert.deepEqual([goal?.kind, goal?.revises], ['Goal', true]);
  });

  test("what still settles nothing: a question, a negation, a hedge, someone else's taste", () => {
    for (const text of [
      '要不要用 Redis？',
      '不用 Redis。',
      '也许用 Kafka 比较好。',
      '他说用 Kafka 比较好。',
      'Dana 比较喜欢回复只用 emoji。',
    ])
      assert.deepEqual(kinds(text), [], text);
  });

  test('把 X 那个决定撤回 retracts the decision it names', () => {
    const [c] = extract(
      ['user', '文档站我们用 Docusaurus 搭。'],
      ['assistant', '好的。'],
      ['user', '先别动，把 Docusaurus 那个决定撤回。'],
    ).slice(1);
    assert.equal(c?.retracting, true);
  });
});

describe('corrections', () => {
  test('the user correcting their own statement in the same message keeps its kind and revises it', () => {
    const [first, fix] = extract([
      'user',
      'From now on, deploy on Thursdays. No wait, make that Tuesdays instead of Thursdays.',
    ]);
    assert.deepEqual([first?.kind, fix?.kind, fix?.revises], ['Rule', 'Rule', true]);
    const [, vitest] = extract(['user', "Let's use Jest for the unit tests. Actually no, Vitest instead of Jest."]);
    assert.deepEqual([vitest?.kind, vitest?.revises, vitest?.title], ['Decision', true, 'Vitest instead of Jest']);
  });

  test('算了 followed by what to do instead revises, it does not take the earlier statement back', () => {
    const out = extract(
      ['user', '这个仓库用 pnpm，别用 npm。'],
      ['assistant', '好的。'],
      ['user', '算了，还是换回 npm 吧，CI 镜像里没有 pnpm。'],
    );
    assert.deepEqual(
      out.map((c) => [c.kind, c.revises]),
      [
        ['Preference', false],
        ['Preference', true],
      ],
    );
    assert.deepEqual(kinds('这个 repo use Yarn, not npm.'), ['Preference: Use Yarn, not npm']);
  });
});

describe('goals named after they are said, notes asked for in other words', () => {
  test('"…，这是我们的目标", "把這個訂為目標", "that\'s the goal", "set that as the goal", "goal 是…" land the goal itself', () => {
    const cases: Array<[string, string]> = [
      ['续约之前要把云服务账单砍掉三分之一，这是我们的目标。', '续约之前要把云服务账单砍掉三分之一'],
      ['年底前要通過 ISO 27001 驗證，把這個訂為目標。', '年底前要通過 ISO 27001 驗證'],
      ["Renewal 之前要把 GCP bill 降 25%，that's the goal。", 'Renewal 之前要把 GCP bill 降 25%'],
      ['年底前要拿到 HIPAA compliance，set that as the goal。', '年底前要拿到 HIPAA compliance'],
      ['这个 quarter 的 goal 是把 cold start 降到 1 秒以内。', '把 cold start 降到 1 秒以内'],
      ['目标很简单：一百万行的导入要在一分钟内跑完。', '一百万行的导入要在一分钟内跑完'],
    ];
    for (const [text, title] of cases) assert.deepEqual(kinds(text), [`Goal: ${title}`], text);
    for (const text of ['Marketing 说 goal 是 DAU 做到 500k，但我不同意。', '我们的 goal 是不是太激进了？'])
      assert.deepEqual(kinds(text), [], text);
  });

  test('记一下：, 請記得, 帮我 remember：, remember it: are notes', () => {
    assert.deepEqual(kinds('记一下：发票 PDF 是 worker 生成的，不是接口生成的。'), [
      'Note: 发票 PDF 是 worker 生成的，不是接口生成的',
    ]);
    assert.deepEqual(kinds('請記得，金流模組是小美負責的。'), ['Note: 金流模組是小美負責的']);
    assert.deepEqual(kinds('帮我 remember：Azure subscription 5 月 20 号 renew。'), [
      'Note: Azure subscription 5 月 20 号 renew',
    ]);
    assert.deepEqual(kinds('Keep in mind for later and remember it: the Apple developer account renews on 14 March.'), [
      'Note: The Apple developer account renews on 14 March',
    ]);
  });
});

describe('lessons said in one Chinese or mixed sentence', () => {
  test('a cause and its fix under any label; a lone "." inside the sentence does not end it', () => {
    for (const text of [
      '今天的收获：构建慢是因为 COPY . 放得太早把层缓存打穿了，把 COPY 挪到 npm ci 后面就好了。',
      '踩雷紀錄：部署失敗是因為建置環境少了 REDIS_URL，解法是在專案設定裡補上。',
      'Root cause 是两台 VM 的 timezone 设置不一样，统一成 UTC 之后 cron 就正常了。',
    ]) {
      assert.deepEqual(
        kinds(text).map((s) => s.split(':')[0]),
        ['Lesson'],
        text,
      );
    }
    assert.deepEqual(kinds('会不会是因为 keep-alive 超时引起了 502？只是猜的。'), []);
  });
});

describe('more of the same families', () => {
  test('a recommendation confirmed through "要这样做吗？"/"要我设定吗？"; an ask naming nothing confirms nothing', () => {
    assert.deepEqual(
      extract(
        ['assistant', '上传的文件我建议放阿里云 OSS，不放本地磁盘，这样扩容方便。要这样做吗？'],
        ['user', '可以'],
      ).map((c) => `${c.kind}: ${c.title}`),
      ['Decision: 上传的文件放阿里云 OSS，不放本地磁盘，这样扩容方便'],
    );
    assert.equal(
      extract(
        ['assistant', '备份我建议放 Backblaze B2，比 S3 便宜很多。要我设定吗？'],
        ['user', 'sounds good，go ahead'],
      )[0]?.title.includes('Backblaze B2'),
      true,
    );
    assert.deepEqual(extract(['assistant', '测试都过了。要这样做吗？'], ['user', '可以']), []);
  });

  test('部署到 a named target, 一直用 a language after "but", never after a Chinese colon, track 成 a task, X blocked 了', () => {
    assert.deepEqual(kinds('我們要把這個專案部署到 Netlify。'), ['Decision: 我們要把這個專案部署到 Netlify']);
    assert.deepEqual(kinds('先 fix 那个 bug，but 我们的 conversation 请一直用中文。'), [
      'Preference: 我们的 conversation 请一直用中文',
    ]);
    assert.deepEqual(
      kinds('In every project 都一样：never commit 任何 credentials.json。').map((s) => s.split(':')[0]),
      ['Rule'],
    );
    assert.deepEqual(
      extract(['user', 'Staging 的 TLS cert 还没配，track 成一个 task。']).map((c) => [c.kind, c.title, c.state]),
      [['Task', 'Staging 的 TLS cert 还没配', 'todo']],
    );
    assert.deepEqual(
      extract(['user', 'Prisma upgrade blocked 了，v6 跟我们的 edge runtime 不兼容。']).map((c) => c.state),
      ['blocked'],
    );
  });

  test('"Change of plan:" and "计划有变" revise; "Correction:" corrects the user\'s own statement', () => {
    assert.equal(extract(['user', 'Change of plan: the goal is now to launch in Germany in Q3.'])[0]?.revises, true);
    const fix = extract([
      'user',
      'The PDF service will call the renderer over HTTP. Correction: it goes through the job queue instead of direct HTTP calls.',
    ]).at(-1);
    assert.deepEqual([fix?.kind, fix?.revises], ['Architecture', true]);
  });
});

describe("hypotheticals, options and other people's wishes land nothing", () => {
  test('in English, 简体, 繁體 and mixed', () => {
    for (const text of [
      'Suppose we use Kafka for the event bus.',
      'We could switch the mobile app to Expo Router.',
      'One option is to deploy on Fly.io.',
      'It would be nice to have 100% test coverage, just a dream.',
      'Dana prefers tabs for indentation.',
      '假如我们用 Kafka 做事件总线。',
      '要是能用 Rust 重写就好了。',
      '有一个方案是用 Redis 做缓存。',
      '假設我們改用 MongoDB。',
      '老闆希望我們改用 Azure。',
      'Hypothetically 我们可以用 Deno。',
    ])
      assert.deepEqual(kinds(text), [], text);
  });
});
