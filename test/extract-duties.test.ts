/**
 * Obligations, prohibitions and tasks said without the older markers' words (duty-markers.ts), the
 * Chinese standing request said as a question, material introduced as "仅供参考", and the scope of a
 * user-level topic (how the agent reaches the user) whatever the kind.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { stripMaterial } from '../src/extract/material.js';
import { asRequest } from '../src/extract/speech-acts.js';
import { labelCandidate } from '../src/jobs/microsync/label.js';
import { extract } from './helpers/rule-turns.js';

const said = (text: string) =>
  extract(['user', text]).map((c) => `${c.kind}: ${c.title}${c.state ? ` (${c.state})` : ''}`);

describe('duties', () => {
  const rules: Array<[string, string]> = [
    ['Each PR needs a line in CHANGELOG.md. Please enforce that.', 'Each PR needs a line in CHANGELOG.md'],
    [
      'Rule for this repo: feature flags get removed within two releases of shipping.',
      'Feature flags get removed within two releases of shipping',
    ],
    ['In every project, never commit a .env file. I mean it.', 'In every project, never commit a .env file'],
    ['所有项目都一样：.env 文件绝对不能提交。', '所有项目都一样：.env 文件绝对不能提交'],
    ['规矩：功能开关上线后两个版本内必须删掉。', '功能开关上线后两个版本内必须删掉'],
    ["Don't ever 直接 force push 到 release 分支。", "Don't ever 直接 force push 到 release 分支"],
    ['CI 红的时候 never merge，任何 PR 都一样。', 'CI 红的时候 never merge，任何 PR 都一样'],
    ['Rule：feature toggles 上线两个 release 之内一定要清掉。', 'Feature toggles 上线两个 release 之内一定要清掉'],
  ];
  for (const [text, title] of rules) test(text, () => assert.deepEqual(said(text), [`Rule: ${title}`]));

  test('not duties: a question, a hedge, a need that is a next step', () => {
    for (const text of [
      'Does every PR need a changelog line?',
      'Maybe 每次都应该 周五 4pm 之后 code freeze? not sure.',
      '也许所有服务都要加限流。',
    ])
      assert.deepEqual(said(text), [], text);
  });
});

describe('tasks tagged as such', () => {
  test('a tag first or last, and a state', () => {
    assert.deepEqual(said('We need to set up the staging DNS records — please track that as a task.'), [
      'Task: We need to set up the staging DNS records (todo)',
    ]);
    assert.deepEqual(said('预发环境的 DNS 记录还没配，帮我记成一个任务。'), ['Task: 预发环境的 DNS 记录还没配 (todo)']);
    assert.deepEqual(said('帮我加个 task：rotate the Twilio auth token。'), [
      'Task: Rotate the Twilio auth token (todo)',
    ]);
    assert.deepEqual(said('新增一個任務：把排程工作搬到新的排程器。'), ['Task: 把排程工作搬到新的排程器 (todo)']);
    assert.deepEqual(
      said('SAML 那个 task blocked 了，要等 IT 给我们 IdP metadata。').map((s) => s.replace(/^.*\(/, '(')),
      ['(blocked)'],
    );
    assert.deepEqual(
      said('很好，登录页的任务完成了。').map((s) => s.replace(/^.*\(/, '(')),
      ['(done)'],
    );
    assert.deepEqual(said('Is the task to profile the dashboard queries done yet?'), []);
  });
});

describe('Chinese standing requests, reference material, user-level scope', () => {
  test('以后…能不能…？ and 之後要…可以…嗎？ are requests', () => {
    assert.equal(asRequest('以后开始压缩上下文之前，能不能先跟我说一声？'), '以后开始压缩上下文之前，先跟我说一声。');
    assert.equal(asRequest('能不能帮我看一下这个报错？'), undefined);
    assert.deepEqual(said('之後要開始壓縮對話之前，可以先通知我一聲嗎？'), ['Rule: 開始壓縮對話之前，先通知我一聲']);
  });

  test('what follows "仅供参考" is material', () => {
    const text = '這是廠商的提案，僅供參考，裡面的內容都還沒同意。\n- 建議：週五下午三點後禁止 merge';
    assert.doesNotMatch(stripMaterial(text), /禁止/);
    assert.deepEqual(said(text), []);
  });

  test('a rule about how the agent reaches the user holds everywhere; a project rule stays in its project', () => {
    const [notice] = extract(['user', 'from now on could you send me a note before you start compacting?']);
    assert.equal(labelCandidate(notice!, 'project:a').scope, 'global');
    const [changelog] = extract(['user', 'Each PR needs a line in CHANGELOG.md.']);
    assert.equal(labelCandidate(changelog!, 'project:a').scope, 'project:a');
  });
});
