/**
 * What probe batch 9 (fixtures/extraction/spec/probe8.mjs) found the rules missing, each beside what
 * must still land nothing: a task put on the list in Chinese and later finished or stuck links to it
 * (its name survives "已经…做完了"); "X is stuck, we're waiting on …" is a blocked task; a choice of a
 * Chinese-named cloud ("短信用阿里云") and its change ("改主意了，短信换成腾讯云") link; "X will be
 * generated with <Tool>" is a decision; "Note for later:" a note; "由 <service> 發送" a design; and
 * another group's rule told as theirs settles nothing, even with "不许" in it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getField } from '../src/entries/model.js';
import { planEntries } from '../src/jobs/microsync/plan.js';
import { extract } from './helpers/rule-turns.js';

/** The entries the planner makes of a user message, an assistant's "OK." and a second user message: kind, state, whether it supersedes the first. */
function session(first: string, second: string): string[] {
  const cands = extract(['user', first], ['assistant', 'OK.'], ['user', second]);
  const plan = planEntries({
    candidates: cands.map((c) => ({ ...c, day: '2026-11-21', sessionPathStored: '~/s1.jsonl' })),
    existing: [],
  });
  return plan.entries.map(
    (e) =>
      `${e.entry.kind}${getField(e.entry, 'state') ? ` ${getField(e.entry, 'state')}` : ''}${
        getField(e.entry, 'supersedes') === plan.entries[0]!.id ? ' supersedes the first' : ''
      }`,
  );
}

test('a task put on the list, then finished or stuck, links to it; a stuck task is blocked', () => {
  assert.deepEqual(session('把优惠券过期提醒加到待办里。', '优惠券过期提醒已经做完了。'), [
    'Task todo',
    'Task done supersedes the first',
  ]);
  assert.deepEqual(session('幫我把會員等級頁面加進待辦。', '會員等級頁面完成了。'), [
    'Task todo',
    'Task done supersedes the first',
  ]);
  assert.deepEqual(session('把 dark mode 加到 todo list。', 'Dark mode 做完了。'), [
    'Task todo',
    'Task done supersedes the first',
  ]);
  assert.deepEqual(
    session(
      'I started on the password reset flow.',
      "Password reset is stuck, we're waiting on the email provider to verify our domain.",
    ),
    ['Task doing', 'Task blocked supersedes the first'],
  );
});

test('choices of a Chinese-named cloud and of a tool "will be … with" land and link; a note for later is a note', () => {
  assert.deepEqual(session('短信服务用阿里云。', '改主意了，短信换成腾讯云，阿里云的模板审核太慢。'), [
    'Decision',
    'Decision supersedes the first',
  ]);
  assert.deepEqual(
    session('Invoices will be generated with Typst.', 'On second thought, make the invoices with WeasyPrint.'),
    ['Decision', 'Decision supersedes the first'],
  );
  const one = (text: string) => extract(['user', text]).map((c) => c.kind);
  assert.deepEqual(one('Note for later: the staging VPN profile expires on March 3.'), ['Note']);
  assert.deepEqual(one('推播通知現在統一由 notification service 發送。'), ['Architecture']);
  for (const unsettled of [
    '不用阿里云，太贵了。',
    'Maybe the invoices will be generated with Typst.',
    'Will the invoices be generated with Typst?',
    '隔壁组的规矩是周五不许上线。',
    "The other team's rule is never to deploy on Fridays.",
    '要是以后报表由 cron job 生成就好了。',
  ])
    assert.deepEqual(one(unsettled), [], unsettled);
});
