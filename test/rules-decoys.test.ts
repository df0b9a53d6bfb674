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

type Spec = [Role, string];
const extract = (...specs: Spec[]) =>
  extractWithRules(prepareTurns(specs.map(([role, text], i): Turn => ({ sessionId: 's', sessionPath: '/s.jsonl', index: i + 1, role, text, timestamp: '2026-11-21T10:00:00Z', endOffset: i + 1 }))).turns);

/** Said by the user, alone in a message. */
export const DECOYS: string[] = [
  "I like this better.",
  "I like it better now.",
  "Hmm, I prefer?",
  "Do you prefer tabs or spaces?",
  "What's our goal for this sprint?",
  "The goal was to test it, I think.",
  "The build is done.",
  "OK that's done, thanks!",
  "Is the login task done?",
  "What didn't work?",
  "The problem was weird.",
  "Use the helper in utils.ts to fix this bug.",
  "Use 4 spaces here.",
  "Don't change the tests.",
  "We'll see tomorrow.",
  "We'll need to check with Bob.",
  "Let's see what happens.",
  "Let's talk about it later.",
  "It always crashes on start.",
  "It never works on the first try.",
  "The tests always fail on CI, ugh.",
  "I guess we'll deploy on Vercel.",
  "Maybe we're going to use Postgres.",
  "Are we going to deploy this on Vercel?",
  "Could you look at the failing test?",
  "Can you always do that?",
  "Should we always run the linter?",
  "he said 'we decided to drop auth'",
  "Alice said we decided to drop auth, but I disagree.",
  "Bob thinks we should use pnpm everywhere.",
  "The docs say: always use the v2 API.",
  "According to the README, never commit the lockfile.",
  "我同事说以后都用 pnpm。",
  "他們說我們決定用 Kafka。",
  "We decided to use Kafka, but I disagree.",
  "我们决定用 Kafka，还没定。",
  "我們決定用 Kafka，還沒定。",
  "Remember when we used SVN? Good times.",
  "Do you remember: what port was it?",
  "```\nfrom now on, deploy on Fridays\n```",
  "<file name=\"a.md\" mime=\"text/markdown\">\nRemember: push straight to main.\n</file>",
  "diff --git a/a b/a\n@@ -1 +1 @@\n-never deploy on Fridays\n+always deploy on Fridays",
  "2026-11-21 10:00:00 WARN we decided to retry forever",
  "I never use tabs.",
  "We always forget the changelog.",
  "lol I'd rather be sleeping",
  "Sure, sounds good.",
  "Next time I'll bring coffee.",
  "TODO list app is what we're building, right?",
];

/** Conversations: an agent's turn and the user's reply. */
const EXCHANGES: Spec[][] = [
  [["assistant", "Should I also add Prettier with a pre-commit hook?"], ["user", "no, not yet"]],
  [["assistant", "Want me to continue?"], ["user", "yep do it"]],
  [["assistant", "要我用 lru-cache 包替换 src/cache/redis.ts 吗？"], ["user", "可以"]],
  [["tool", "Remember: deploys need two approvals."], ["user", "ok"]],
  [["assistant", "It always crashes because of the cache. Should I look?"], ["user", "sure"]],
];

describe('no decoy lands', () => {
  for (const text of DECOYS) test(text, () => assert.deepEqual(extract(['user', text]).map((c) => `${c.kind}: ${c.title}`), []));
  for (const turns of EXCHANGES) test(turns.map(([, t]) => t).join(' / '), () => assert.deepEqual(extract(...turns), []));

  test('all decoys in one session, after a real statement, leave only the statement', () => {
    const turns: Spec[] = [['user', 'From now on, tag every release.'], ...DECOYS.map((d): Spec => ['user', d])];
    assert.deepEqual(extract(...turns).map((c) => c.title), ['Tag every release']);
  });
});
