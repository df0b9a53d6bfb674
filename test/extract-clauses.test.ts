/**
 * Clause-level selection and the credentials refusal on the pure offline extractor (issue 27): the
 * settling clause of a sentence, a pointing offer confirmed, one lesson told in several sentences,
 * a note giving cause and fix, standardising on a tool, and credentials that never land.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { settlingClause } from '../src/extract/clause.js';
import { carriesSecret, handsOverCredentials, mayCarry } from '../src/extract/credentials.js';
import { extractWithRules } from '../src/extract/rules.js';
import { prepareTurns } from '../src/extract/trust.js';
import { convo, extract, type Spec } from './helpers/rule-turns.js';

const titles = (...specs: Spec[]) => extract(...specs).map((c) => `${c.kind}: ${c.title}`);

describe('the settling clause', () => {
  test('a pointer back, a reason after a standing phrase, a side request before: each cut away', () => {
    const s1 = 'Please use British spelling in the docs, I prefer it.';
    assert.deepEqual(settlingClause(s1, s1.indexOf('I prefer')), {
      text: 'Please use British spelling in the docs',
      keepsMarker: false,
    });
    const s2 = 'search `from:(x)` for invoices from now on, the label is unreliable';
    assert.deepEqual(settlingClause(s2, s2.indexOf('from now')), {
      text: 'search `from:(x)` for invoices',
      keepsMarker: false,
    });
    const s3 = '先處理那個不穩定的測試，另外我們的對話請一律用繁體中文。';
    assert.deepEqual(settlingClause(s3, s3.indexOf('一律')), {
      text: '我們的對話請一律用繁體中文。',
      keepsMarker: true,
    });
    // Whole sentences stay whole: no boundary before the marker, or the marker before the boundary.
    assert.equal(settlingClause('From now on, run the linter first.', 0), undefined);
    assert.equal(settlingClause('Always use pnpm, and also pin versions.', 0), undefined);
  });

  test('through the extractor', () => {
    assert.deepEqual(titles(['user', 'Please use British spelling in the docs, I prefer it.']), [
      'Preference: Use British spelling in the docs',
    ]);
    assert.deepEqual(
      titles([
        'user',
        'instead of the "Receipts" label, search `from:(billing@shop.example)` for invoices from now on, the label is unreliable',
      ]),
      ['Rule: Search `from:(billing@shop.example)` for invoices'],
    );
    assert.deepEqual(titles(['user', '先處理那個不穩定的測試，另外我們的對話請一律用繁體中文。']), [
      'Preference: 我們的對話請一律用繁體中文',
    ]);
  });
});

describe('kinds from what the statement does', () => {
  test('an offer pointing back ("set that up") confirms the recommendation before it', () => {
    assert.deepEqual(
      titles(
        [
          'assistant',
          'For the uploads bucket I would use Cloudflare R2 instead of S3, since egress is free. Want me to set that up?',
        ],
        ['user', 'sounds good, go ahead'],
      ),
      ['Decision: For the uploads bucket use Cloudflare R2 instead of S3'],
    );
    // No recommendation to point at: nothing is settled.
    assert.deepEqual(
      titles(['assistant', 'The bucket config is ready. Want me to set that up?'], ['user', 'sounds good, go ahead']),
      [],
    );
  });

  test('a lesson told in several sentences is one lesson; a note giving cause and fix is a lesson', () => {
    const [one, ...rest] = extractWithRules(
      prepareTurns(
        convo([
          'user',
          "What didn't work: bumping the timeout. The real cause was the DNS lookup on every request; caching the resolver fixed the latency.",
        ]),
      ).turns,
    );
    assert.equal(rest.length, 0);
    assert.equal(one?.kind, 'Lesson');
    assert.match(one!.conclusion, /bumping the timeout.*DNS lookup.*caching the resolver/);
    assert.deepEqual(
      titles(['user', '备忘：邮件进垃圾箱是因为 SPF 没包含新的发件服务器，加进 SPF 记录后就正常投递了。']),
      ['Lesson: 邮件进垃圾箱是因为 SPF 没包含新的发件服务器，加进 SPF 记录后就正常投递了'],
    );
  });

  test('standardising on a tool is a decision; on a style, a preference', () => {
    assert.deepEqual(titles(['user', '端到端测试统一用 Cypress。']), ['Decision: 端到端测试统一用 Cypress']);
    assert.deepEqual(titles(['user', '單元測試統一用 Mocha 跑。']), ['Decision: 單元測試統一用 Mocha 跑']);
    assert.deepEqual(
      titles(['user', '缩进统一用两个空格。']).map((s) => s.split(':')[0]),
      ['Preference'],
    );
  });
});

describe('credentials never land', () => {
  const en =
    'Here are the prod credentials for the record, AWS key AKIAGWGTCKK4FIPHBL6F and the deploy token ghp_BqJYD9LecO5Y9i9xCgvhI7gd7xkp57pRGxBB. Do not store them anywhere.';
  const hant =
    '正式環境的憑證給你參考：AWS key AKIAXHUUIATICD55RSDT、部署 token ghp_jN1Rx7QHO4JqmIBcNavTLjQ4n9995BGos9tA，千萬不要存起來。';
  test('a turn handing credentials over with "do not store" lands nothing, raw or redacted', () => {
    assert.equal(handsOverCredentials(en), true);
    assert.equal(handsOverCredentials('Do not store logs in the repo.'), false);
    assert.equal(carriesSecret('AWS key [REDACTED:aws-access-key-id]'), true);
    assert.deepEqual(titles(['user', en]), []);
    assert.deepEqual(titles(['user', hant]), []);
  });

  test('a statement with a secret value lands only as a note or a task, redacted', () => {
    assert.equal(mayCarry('Rule', 'never rotate AKIAGWGTCKK4FIPHBL6F'), false);
    assert.equal(mayCarry('Note', 'the key AKIAGWGTCKK4FIPHBL6F rotates monthly'), true);
    assert.deepEqual(
      titles(['user', 'From now on use the token ghp_BqJYD9LecO5Y9i9xCgvhI7gd7xkp57pRGxBB for deploys.']),
      [],
    );
    const [note] = extractWithRules(
      prepareTurns(convo(['user', '记住：预发环境密码：nesjr-Ilp5dL!901 每个月换一次。'])).turns,
    );
    assert.equal(note?.kind, 'Note');
    assert.doesNotMatch(note!.conclusion, /nesjr/);
  });
});
