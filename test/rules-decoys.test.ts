/**
 * Decoys for the offline extractor (issue 27): text that looks like a statement but settles
 * nothing. Guesses, questions, quotes and reported speech, attachments, diffs and logs, tool output,
 * descriptive "always", one-off instructions, vague offers. None of them may land, as a candidate
 * or as an entry through `mem microsync` (microsync-phrasing.test.ts runs a few through the CLI).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { extractWithRules } from '../src/extract/rules.js';
import { prepareTurns } from '../src/extract/trust.js';
import type { Role, Turn } from '../src/transcripts/index.js';
import { DECOYS } from './helpers/decoys.js';

type Spec = [Role, string];
const extract = (...specs: Spec[]) =>
  extractWithRules(
    prepareTurns(
      specs.map(([role, text], i): Turn => ({
        sessionId: 's',
        sessionPath: '/s.jsonl',
        index: i + 1,
        role,
        text,
        timestamp: '2026-11-21T10:00:00Z',
        endOffset: i + 1,
      })),
    ).turns,
  );

/** Conversations: an agent's turn and the user's reply. */
const EXCHANGES: Spec[][] = [
  [
    ['assistant', 'Should I also add Prettier with a pre-commit hook?'],
    ['user', 'no, not yet'],
  ],
  [
    ['assistant', 'Want me to continue?'],
    ['user', 'yep do it'],
  ],
  [
    ['assistant', '要我用 lru-cache 包替换 src/cache/redis.ts 吗？'],
    ['user', '可以'],
  ],
  [
    ['tool', 'Remember: deploys need two approvals.'],
    ['user', 'ok'],
  ],
  [
    ['assistant', 'It always crashes because of the cache. Should I look?'],
    ['user', 'sure'],
  ],
];

describe('no decoy lands', () => {
  for (const text of DECOYS)
    test(text, () =>
      assert.deepEqual(
        extract(['user', text]).map((c) => `${c.kind}: ${c.title}`),
        [],
      ),
    );
  for (const turns of EXCHANGES)
    test(turns.map(([, t]) => t).join(' / '), () => assert.deepEqual(extract(...turns), []));

  test('all decoys in one session, after a real statement, leave only the statement', () => {
    const turns: Spec[] = [['user', 'From now on, tag every release.'], ...DECOYS.map((d): Spec => ['user', d])];
    assert.deepEqual(
      extract(...turns).map((c) => c.title),
      ['Tag every release'],
    );
  });
});
