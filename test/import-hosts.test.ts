/**
 * `mem import codex` and `mem import claude-memory`: the hosts' own memory folders (test/fixtures/hosts,
 * laid out as Codex and Claude Code write them) become entries dated by their files, with sources naming
 * the file and lines, secrets redacted, the scope each host's memory holds in; a second run adds nothing,
 * and the hosts' folders are byte-identical afterwards.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { dailyText, mem, ROOT, tempDir } from './helpers/cli.js';
import { files, markdownOnly, workspace } from './fixtures/governance/workspace.js';
import { SAMPLE_SECRETS } from './fixtures/secrets/corpus.js';

const NOW = ['--now', '2026-11-22T10:00:00Z'];
const slugOf = (dir: string) => dir.replace(/[^a-zA-Z0-9]/g, '-');

/** Sets every file's modification time under `dir` to `iso`, so a date taken from mtime is known. */
function touchAll(dir: string, iso: string) {
  const t = new Date(iso);
  for (const rel of files(dir).keys()) utimesSync(join(dir, rel), t, t);
}

type Added = { id: string; file: string; from: string };

function entryOf(text: string, id: string): string {
  const at = text.indexOf(`- id: ${id}\n`);
  assert.ok(at > 0, `no entry ${id}`);
  const start = text.lastIndexOf('\n## ', at) + 1;
  const end = text.indexOf('\n## ', at);
  return text.slice(start, end === -1 ? undefined : end);
}

test('import claude-memory: one entry per memory file, kinds by type, scope from the project folder the slug names; twice adds nothing', async (t) => {
  const root = tempDir(t, 'memfold-hosts-');
  const project = join(root, 'code', 'shop');
  mkdirSync(project, { recursive: true });
  const memory = join(root, '.claude', 'projects', slugOf(project), 'memory');
  cpSync(join(ROOT, 'test/fixtures/hosts/claude-memory'), memory, { recursive: true });
  writeFileSync(
    join(memory, 'reference_dashboards.md'),
    `---\nname: dashboards\ndescription: Where the API latency graphs live\ntype: reference\n---\nThe API latency graphs are on grafana.internal/d/api-latency, read with the token ${SAMPLE_SECRETS.ghp}\n`,
  );
  touchAll(memory, '2026-11-15T12:00:00Z');
  const before = files(memory);
  const ws = workspace(t, {});

  const r = await mem(['-C', ws, ...NOW, '--json', 'import', 'claude-memory', memory]);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { items: number; added: Added[]; redacted: number; warnings: string[] };
  assert.deepEqual(out.warnings, []);
  assert.equal(out.redacted, 1);
  assert.deepEqual(
    out.added.map((a) => [a.id, a.file]),
    [
      // The index's own line (no memory file behind it) is a note; its lines linking to files are not adopted twice.
      ['NOTE-20261115-check-the-release-calendar-before-promising-dates', 'memory/2026-11-15.md'],
      ['PREF-20261115-the-user-prefers-terse-answers-without-a-closing-summary', 'memory/2026-11-15.md'],
      ['RULE-20261115-integration-tests-must-hit-a-real-database-never-mocks', 'memory/2026-11-15.md'],
      // A date in the front matter dates the memory; otherwise the file's modification time does.
      ['DECISION-20261120-merge-freeze-for-the-mobile-release', 'memory/2026-11-20.md'],
      ['NOTE-20261115-where-the-api-latency-graphs-live', 'memory/2026-11-15.md'],
      ['PREF-20261115-the-user-is-a-data-scientist-new-to-the-react-side-of-this', 'memory/2026-11-15.md'],
    ],
  );
  const text = dailyText(ws);
  assert.ok(!text.includes(SAMPLE_SECRETS.ghp) && text.includes('[REDACTED:github-pat]'));
  const testing = entryOf(text, 'RULE-20261115-integration-tests-must-hit-a-real-database-never-mocks');
  assert.ok(
    testing.includes(
      `  - session_id: import:claude-memory\n  - session_path: ${join(memory, 'feedback_testing.md')}\n  - message_range: 7-11\n`,
    ),
    testing,
  );
  assert.match(
    testing,
    /- conclusion: Integration tests must hit a real database, never mocks\. \*\*Why:\*\* last quarter/,
  );
  assert.match(testing, /- scope: project:shop\n/);
  assert.match(
    entryOf(text, 'PREF-20261115-the-user-is-a-data-scientist-new-to-the-react-side-of-this'),
    /- scope: global\n/,
    'a user memory holds in every project',
  );
  assert.match(
    entryOf(text, 'NOTE-20261115-check-the-release-calendar-before-promising-dates'),
    /- scope: project:shop\n/,
  );
  assert.equal((await mem(['-C', ws, 'lint'])).code, 0);

  const md = files(ws, markdownOnly);
  const again = await mem(['-C', ws, ...NOW, '--json', 'import', 'claude-memory', memory]);
  assert.equal(again.code, 0, again.stderr);
  assert.deepEqual(JSON.parse(again.stdout).added, []);
  assert.deepEqual(files(ws, markdownOnly), md);
  assert.deepEqual(files(memory), before, "the host's folder is byte-identical");

  // The imported rules reach the session start of that project, and only of that project.
  const ctx = await mem(['-C', ws, ...NOW, 'context', '--scope', 'project:shop']);
  assert.ok(ctx.stdout.includes('RULE-20261115-integration-tests-must-hit-a-real-database-never-mocks'), ctx.stdout);
  const other = await mem(['-C', ws, ...NOW, 'context', '--scope', 'project:billing']);
  assert.ok(!other.stdout.includes('integration-tests-must-hit'));
});

test('import claude-memory: a transcript beside the memory names the project folder when the slug is ambiguous', async (t) => {
  const root = tempDir(t, 'memfold-hosts-');
  // /home/me/my-shop and /home/me/my/shop have one slug; the session transcripts say which it was.
  const slugDir = join(root, 'projects', '-home-me-my-shop');
  cpSync(join(ROOT, 'test/fixtures/hosts/claude-memory'), join(slugDir, 'memory'), { recursive: true });
  writeFileSync(
    join(slugDir, '7f3c2a10.jsonl'),
    `${JSON.stringify({ type: 'user', cwd: '/home/me/my-shop', sessionId: '7f3c2a10', message: { role: 'user', content: 'hi' } })}\n`,
  );
  const ws = workspace(t, {});
  const r = await mem(['-C', ws, ...NOW, '--json', 'import', 'claude-memory', slugDir]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout).warnings, []);
  assert.match(dailyText(ws), /- scope: project:my-shop\n/);

  // Given ~/.claude/projects itself: every project's memory, each with its own scope.
  const billing = join(root, 'projects', '-srv-billing');
  mkdirSync(join(billing, 'memory'), { recursive: true });
  writeFileSync(
    join(billing, 'memory', 'feedback_invoices.md'),
    '---\nname: invoices\ndescription: Invoices are immutable once sent\ntype: feedback\n---\nNever edit an invoice after it was sent; issue a credit note instead.\n',
  );
  writeFileSync(
    join(billing, 'a1.jsonl'),
    `${JSON.stringify({ type: 'user', cwd: '/srv/billing', sessionId: 'a1' })}\n`,
  );
  touchAll(join(root, 'projects'), '2026-11-15T12:00:00Z');
  const all = workspace(t, {});
  const both = await mem(['-C', all, ...NOW, '--json', 'import', 'claude-memory', join(root, 'projects')]);
  assert.equal(both.code, 0, both.stderr);
  const bothText = dailyText(all);
  assert.match(entryOf(bothText, 'RULE-20261115-invoices-are-immutable-once-sent'), /- scope: project:billing\n/);
  assert.match(
    entryOf(bothText, 'RULE-20261115-integration-tests-must-hit-a-real-database-never-mocks'),
    /- scope: project:my-shop\n/,
  );

  // No transcript and no such folder on this machine: the slug's last part, said in a warning.
  const lone = join(root, 'lone', '-nowhere-at-all-shop', 'memory');
  cpSync(join(ROOT, 'test/fixtures/hosts/claude-memory'), lone, { recursive: true });
  const ws2 = workspace(t, {});
  const r2 = await mem(['-C', ws2, ...NOW, '--json', 'import', 'claude-memory', lone]);
  assert.equal(r2.code, 0, r2.stderr);
  assert.match(
    JSON.parse(r2.stdout).warnings[0],
    /no folder on this machine is named by -nowhere-at-all-shop .*scope project:shop; pass --scope to choose/,
  );
  const r3 = await mem(['-C', ws2, ...NOW, '--json', 'import', 'claude-memory', lone, '--scope', 'project:web']);
  assert.equal(r3.code, 0, r3.stderr);
});

test('import codex: ~/.codex/memories by default, global scope, dated by each file; twice adds nothing; the folder is untouched', async (t) => {
  const home = tempDir(t, 'memfold-home-');
  const dir = join(home, '.codex', 'memories');
  cpSync(join(ROOT, 'test/fixtures/hosts/codex-memories'), dir, { recursive: true });
  writeFileSync(
    join(dir, 'MEMORY.md'),
    readFileSync(join(dir, 'MEMORY.md'), 'utf8') +
      `- The staging deploy key is ${SAMPLE_SECRETS.ghp} until we rotate it.\n`,
  );
  touchAll(dir, '2026-11-19T08:00:00Z');
  const before = files(dir);
  const ws = workspace(t, {});
  const env = { HOME: home };

  const r = await mem(['-C', ws, ...NOW, '--json', 'import', 'codex'], { env });
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout) as {
    files: string[];
    items: number;
    added: Added[];
    skipped: number;
    redacted: number;
  };
  assert.deepEqual(out.files, [
    '~/.codex/memories/memory_summary.md',
    '~/.codex/memories/MEMORY.md',
    '~/.codex/memories/rollout_summaries/2026-11-18T09-30-00-deploy-pipeline.md',
  ]);
  assert.equal(out.redacted, 1);
  assert.deepEqual(
    out.added.map((a) => [a.id, a.file]),
    [
      ['NOTE-20261119-the-user-works-on-the-shop-and-billing-services-mostly-in', 'memory/2026-11-19.md'],
      ['PREF-20261119-prefers-short-answers-with-the-command-first', 'memory/2026-11-19.md'],
      ['RULE-20261119-never-run-database-migrations-against-production-without-a', 'memory/2026-11-19.md'],
      // MEMORY.md repeats that rule: adopted once.
      ['DECISION-20261119-we-decided-to-use-pnpm-workspaces-for-the-monorepo', 'memory/2026-11-19.md'],
      ['NOTE-20261119-the-billing-tests-need-the-stripe-mock-server-on-port-12111', 'memory/2026-11-19.md'],
      ['NOTE-20261119-the-staging-deploy-key-is-redacted-github-pat-until-we', 'memory/2026-11-19.md'],
      // A rollout summary named by its day keeps it.
      ['NOTE-20261118-the-deploy-failed-because-the-docker-cache-was-keyed-on-the', 'memory/2026-11-18.md'],
      ['DECISION-20261118-we-switched-to-keying-the-cache-on-the-lockfile-and-the-node', 'memory/2026-11-18.md'],
    ],
  );
  assert.equal(out.skipped, 1);
  const text = dailyText(ws);
  assert.ok(!text.includes(SAMPLE_SECRETS.ghp));
  assert.equal(text.match(/- scope: global\n/g)?.length, 8);
  assert.ok(
    text.includes(
      '  - session_id: import:codex\n  - session_path: ~/.codex/memories/rollout_summaries/2026-11-18T09-30-00-deploy-pipeline.md\n  - message_range: 7-7\n',
    ),
    text,
  );
  assert.equal((await mem(['-C', ws, 'lint'])).code, 0);

  const md = files(ws, markdownOnly);
  const again = await mem(['-C', ws, ...NOW, '--json', 'import', 'codex', dir]);
  assert.equal(again.code, 0, again.stderr);
  assert.deepEqual(JSON.parse(again.stdout).added, []);
  assert.deepEqual(files(ws, markdownOnly), md);
  assert.deepEqual(files(dir), before, "the host's folder is byte-identical");

  const missing = await mem(['-C', ws, 'import', 'codex'], { env: { HOME: join(home, 'nobody') } });
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /~\/\.codex\/memories: no such folder/);
});
