/**
 * A wrap-up bullet's cut (issue 31 item 5), on the pure function: a secret the cut would halve is
 * redacted first, a quotation that opens the text is closed after the "…", CJK is cut between
 * characters or at its punctuation. The CLI path is in wrapup-sessions.test.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { safeText } from '../src/jobs/wrapup/bullet-text.js';

test('a bullet is redacted before it is cut, and no quotation is left open', () => {
  const key = 'AKIA' + 'Q3EGRXZ7LMN4PT2V';
  for (const words of [10, 30, 37]) {
    const secret = safeText(`${'word '.repeat(words)}aws_access_key_id=${key} ${'and more words after it '.repeat(8)}`);
    assert.ok(!secret.includes('AKIA'), secret);
    assert.match(secret, words === 10 ? /=\[REDACTED:[\w-]+\] and more .*\S…$/ : /\S…$/);
  }

  const quoted = safeText(`"${'the whole bullet is one long quotation that goes on '.repeat(5)}"`);
  assert.match(quoted, /^"the whole bullet .*\S…"$/);
  assert.ok([...quoted].length <= 201, quoted);

  const zh = safeText('请'.concat('把导入流程的每一个步骤都写清楚'.repeat(20)));
  assert.match(zh, /^请把导入流程.*[\p{sc=Han}]…$/u);
  assert.ok([...zh].length <= 200, zh);
});
