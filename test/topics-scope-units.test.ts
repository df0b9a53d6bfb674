/**
 * The pure parts of issue 27's keys and scopes: the topic lexicon on the issue's own phrasings (en,
 * 简体, 繁體), what counts as "everywhere", the keys generated and kept, and how a git config and a
 * Claude Code project folder name are read.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EVERYWHERE, topicOf } from '../src/extract/topics.js';
import { generatedKey, nameSlug, scopedKey } from '../src/extract/typed-key.js';
import type { Candidate } from '../src/extract/types.js';
import { labelCandidate } from '../src/jobs/microsync/label.js';
import { originUrl, repoNameOfUrl } from '../src/scope/git-repo.js';
import { claudeProjectDir, decodeClaudeFolder } from '../src/scope/session-folder.js';

test("the lexicon names the topic of the issue's phrasings, in English, 简体 and 繁體, and nothing outside it", () => {
  const cases: Array<[string, string | undefined]> = [
    ['use pnpm, not npm, for everything', 'package-manager'],
    ['Switch back to npm', 'package-manager'],
    ['Use 2-space indentation everywhere.', 'indentation'],
    ['but always keep our conversation in English', 'language'],
    ["We're going to deploy this on Vercel.", 'deploy-target'],
    ["let's go with Zustand for state, Redux is overkill", 'state-management'],
    ['I prefer short commit messages.', 'commit-style'],
    ['add Prettier with a pre-commit hook', 'formatter'],
    ["Actually we'll use Postgres instead of SQLite", 'database'],
    ['数据库改用 PostgreSQL', 'database'],
    ['以後都用中文回覆我', 'language'],
    ['縮排一律用兩個空格', 'indentation'],
    ['语气简洁一点', 'tone'],
    ['Never push to main directly.', 'branch-policy'],
    ['Error pages must never show stack traces', undefined],
    ['Keep the pnpm-lock file out of reviews', undefined],
    ['Make the form reactive', undefined],
  ];
  for (const [text, want] of cases) assert.equal(topicOf(text)?.name, want, text);
  assert.equal(topicOf('reply in English')?.global, true);
  assert.equal(topicOf('use pnpm')?.global, false);
});

test('"everywhere" is what is said to hold in every project, not a bare "everywhere"', () => {
  for (const yes of [
    'Use tabs in every project',
    'for all my repos, sign commits',
    'apply this globally',
    '全局都用 pnpm',
    '所有项目都用两个空格',
    '每個專案都要寫測試',
  ])
    assert.match(yes, EVERYWHERE, yes);
  for (const no of ['Use 2-space indentation everywhere.', 'use pnpm for everything', 'every project manager agrees'])
    assert.doesNotMatch(no, EVERYWHERE, no);
});

test("keys: generated from the topic and scope, kept when given with the scope's project, none outside the lexicon", () => {
  const pm = topicOf('use pnpm')!;
  assert.equal(generatedKey('Preference', pm, 'Use pnpm', 'project:shop'), 'pref:tools:package-manager');
  assert.equal(generatedKey('Decision', pm, 'Use pnpm', 'project:My Shop'), 'decision:my-shop:package-manager');
  assert.equal(generatedKey('Decision', pm, 'Use pnpm', undefined), undefined, 'no project, no project key');
  assert.equal(
    generatedKey('Rule', pm, 'Always use pnpm', 'project:shop'),
    undefined,
    'two rules on one topic are two rules',
  );
  assert.equal(generatedKey('Decision', undefined, 'Cap uploads at 25 MB', 'project:shop'), undefined);
  assert.equal(
    generatedKey('Task', undefined, 'Write the rollback script for the orders table', 'project:shop'),
    'task:shop:write-the-rollback-script-for-the-orders',
  );
  assert.equal(nameSlug('Done'), undefined);
  assert.equal(scopedKey('task:<project>:rollback', 'project:shop'), 'task:shop:rollback');
  assert.equal(scopedKey('pref:tools:package-manager', 'project:shop'), 'pref:tools:package-manager');
});

const candidate = (over: Partial<Candidate>): Candidate => ({
  kind: 'Preference',
  title: 'x',
  conclusion: 'x',
  confidence: 0.9,
  origin: 'user',
  revises: false,
  sessionId: 's',
  sessionPath: '/t/s.jsonl',
  firstTurn: 1,
  lastTurn: 1,
  timestamp: '2026-11-20T09:00:00Z',
  ...over,
});

test('labels: the session\'s scope, global for a user-level topic or "in every project", a model\'s project name replaced', () => {
  const lang = labelCandidate(candidate({ title: 'Reply in English', conclusion: 'Reply in English' }), 'project:shop');
  assert.deepEqual([lang.scope, lang.key], ['global', 'pref:conversation:language']);
  const pm = labelCandidate(candidate({ title: 'Use pnpm', conclusion: 'Use pnpm, not npm' }), 'project:shop');
  assert.deepEqual([pm.scope, pm.key], ['project:shop', 'pref:tools:package-manager']);
  const everywhere = labelCandidate(
    candidate({ kind: 'Rule', title: 'Sign commits', conclusion: 'Sign commits in every project' }),
    'project:shop',
  );
  assert.equal(everywhere.scope, 'global');
  const guessed = labelCandidate(
    candidate({
      kind: 'Decision',
      title: 'Use Postgres',
      conclusion: 'Use Postgres',
      scope: 'project:guess',
      key: 'decision:<project>:database',
    }),
    'project:shop',
  );
  assert.deepEqual([guessed.scope, guessed.key], ['project:shop', 'decision:shop:database']);
  const nowhere = labelCandidate(
    candidate({
      kind: 'Decision',
      title: 'Use Postgres',
      conclusion: 'Use Postgres',
      key: 'decision:<project>:database',
    }),
    undefined,
  );
  assert.deepEqual(
    [nowhere.scope, nowhere.key],
    [undefined, undefined],
    'unscoped is never global, and a placeholder names nothing',
  );
});

test('git config and Claude Code folder names are read as git and Claude Code write them', () => {
  assert.equal(
    originUrl(
      '[core]\n\tbare = false\n[remote "upstream"]\n\turl = git@x:a/other.git\n[remote "origin"]\n\turl = https://github.com/me/shop.git\n',
    ),
    'https://github.com/me/shop.git',
  );
  assert.equal(originUrl('[remote "upstream"]\n\turl = git@x:a/other.git\n'), undefined);
  for (const url of [
    'git@github.com:me/shop.git',
    'https://github.com/me/shop',
    'https://github.com/me/shop.git/',
    '/srv/git/shop.git',
    'ssh://git@host:22/me/shop.git',
  ])
    assert.equal(repoNameOfUrl(url), 'shop', url);
  assert.equal(claudeProjectDir('~/.claude/projects/-home-me-shop/7f3c.jsonl'), '-home-me-shop');
  assert.equal(claudeProjectDir('~/.codex/sessions/2026/11/20/rollout.jsonl'), undefined);
  // Folders missing on this machine: the user's folder is not the project.
  assert.match(decodeClaudeFolder('-home-nobody-here-my-shop'), /[/\\]nobody-here-my-shop$|[/\\]here-my-shop$/);
  assert.match(decodeClaudeFolder('-Users-nobody-my-shop'), /[/\\]my-shop$/);
});

test('imported OpenClaw notes: "I prefer" is a Preference, decisions and rules as before', async () => {
  const { kindFor } = await import('../src/jobs/import-parse.js');
  assert.equal(kindFor('openclaw', 'I prefer short commit messages'), 'Preference');
  assert.equal(kindFor('openclaw', '我比較喜歡用 pnpm'), 'Preference');
  assert.equal(kindFor('openclaw', 'We decided to use Postgres'), 'Decision');
  assert.equal(kindFor('openclaw', 'Never push to main'), 'Rule');
  assert.equal(kindFor('claude-md', 'I prefer tabs'), 'Rule');
});

test('conflicts (compound and mem status): one key in two scopes is two facts; a retraction flips what it names', async () => {
  const { recordsOf } = await import('../src/entries/store.js');
  const { planConflicts } = await import('../src/entries/conflicts.js');
  const { findConflicts } = await import('../src/status/conflicts.js');
  const { scopeOfFolder } = await import('../src/scope/scope-of.js');
  const entry = (kind: string, id: string, date: string, extra: string) =>
    `## ${kind}: ${id}\n- id: ${id}\n- date: ${date}\n- conclusion: ${id}\n- status: active\n${extra}\n`;
  const text = [
    entry('Preference', 'PREF-20261117-a-pnpm', '2026-11-17', '- key: pref:tools:package-manager\n- scope: project:a'),
    entry('Preference', 'PREF-20261118-b-npm', '2026-11-18', '- key: pref:tools:package-manager\n- scope: project:b'),
    entry('Preference', 'PREF-20261119-a-npm', '2026-11-19', '- key: pref:tools:package-manager\n- scope: project:A'),
    entry('Decision', 'DECISION-20261117-redis', '2026-11-17', '- scope: project:a'),
    entry(
      'Decision',
      'DECISION-20261119-no-redis',
      '2026-11-19',
      '- retracts: DECISION-20261117-redis\n- scope: project:a',
    ),
  ].join('\n');
  const records = recordsOf('memory/2026-11-17.md', text);
  const plan = planConflicts(records, () => true);
  assert.deepEqual(
    plan.flips.map((f) => [f.id, f.to, f.by]),
    [
      ['DECISION-20261117-redis', 'retracted', 'DECISION-20261119-no-redis'],
      ['PREF-20261117-a-pnpm', 'superseded', 'PREF-20261119-a-npm'],
    ],
  );
  const status = findConflicts(records)
    .conflicts.map((c) => c.ids.join(' '))
    .sort();
  assert.deepEqual(status, [
    'DECISION-20261117-redis DECISION-20261119-no-redis',
    'PREF-20261117-a-pnpm PREF-20261119-a-npm',
  ]);
  assert.equal(scopeOfFolder('/').scope, 'global');
});
