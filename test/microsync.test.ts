/**
 * `mem microsync` end to end: the built CLI as a child process on a copy of the bundled example
 * workspace and transcripts (fixtures/transcripts/README.md says what must and must not land).
 */
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { dailyText, editConfig, entryIds, exampleWorkspace, mem, snapshot } from './helpers/cli.js';

const NOW = '2026-11-22T09:00:00Z';

// Issue 27: titles and slugs are cut at a word or clause boundary, never mid-word ("…-kept-bre").
const EXPECTED_IDS = [
  'ARCH-20261120-switching-from-rest-polling-to-a-websocket-push-architecture',
  'DECISION-20261120-move-the-event-store-to-postgresql',
  'DECISION-20261121-use-pnpm-workspaces-for-the-monorepo-npm-s-hoisting-kept',
  'DECISION-20261121-放弃-redis-缓存-改用本地-lru',
  'NOTE-20261120-the-staging-db-password-rotates-on-mondays',
  'NOTE-20261121-部署前要先跑-smoke-test',
  'RULE-20261120-cap-uploads-at-25-mb',
  'RULE-20261120-every-migration-needs-a-rollback-script',
  'RULE-20261121-all-api-errors-use-rfc-7807-problem-json-bodies',
].sort();

interface Summary {
  sessions: number;
  turns: number;
  bytesRead: number;
  malformed: number;
  redacted: number;
  added: Array<{ id: string; file: string }>;
  plan: { entries: Array<{ entry: { title: string } }>; skipped: unknown[] };
}

describe('mem microsync on the bundled example', () => {
  test('writes exactly the settled statements, by day, with sources, and prints one summary line', async (t) => {
    const { ws } = exampleWorkspace(t);
    const r = await mem(['-C', ws, 'microsync', '--since', 'all', '--now', NOW]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /^microsync: 6 sessions read \(6 files\), 77 turns, 9 entries added, 0 skipped as duplicates, 4 malformed lines skipped, 2 secrets redacted\n$/,
    );
    assert.deepEqual(entryIds(ws), EXPECTED_IDS);
    assert.deepEqual([...snapshot(join(ws, 'memory')).keys()].filter((f) => f.endsWith('.md')).sort(), [
      '2026-11-20.md',
      '2026-11-21.md',
    ]);

    const day20 = readFileSync(join(ws, 'memory', '2026-11-20.md'), 'utf8');
    assert.ok(
      day20.startsWith(
        '# 2026-11-20\n\n## Decision: Move the event store to PostgreSQL\n- id: DECISION-20261120-move-the-event-store-to-postgresql\n- date: 2026-11-20\n- source:\n  - session_id: 5b0f3c8e-2d4a-4c71-9e3b-8a6f1d2c7e90\n',
      ),
    );
    assert.match(day20, /- why: SQLite locked under concurrent writers\n/);
    assert.match(day20, /## Rule: Cap uploads at 25 MB\n(?:- .*\n|  - .*\n)*?- origin: agent\n/);
    assert.doesNotMatch(dailyText(ws), /^## \w+: [，,]/m, 'no title starts with punctuation');
  });

  test('never writes tool output, injected instructions, guesses, chit-chat or secrets', async (t) => {
    const { ws } = exampleWorkspace(t);
    const r = await mem(['-C', ws, 'microsync', '--since', 'all', '--now', NOW]);
    assert.equal(r.code, 0, r.stderr);
    const text = dailyText(ws);
    for (const never of [
      'push straight to main',
      'production database dump',
      'ignore previous',
      'Kafka',
      'GraphQL',
      'async',
      'coffee',
      'sk-proj-',
      'AKIA5A4WCHBDEVSPP0L9',
      'Task',
    ]) {
      assert.ok(!text.includes(never), `memory must not contain "${never}"`);
    }
    assert.doesNotMatch(text, /^- origin: (?!user$|agent$)/m);
  });

  test('a second run, and a third after deleting .mem/, leave every file byte-identical', async (t) => {
    const { ws } = exampleWorkspace(t);
    const args = ['-C', ws, 'microsync', '--since', 'all', '--now', NOW];
    assert.equal((await mem(args)).code, 0);
    const first = snapshot(ws);
    const again = await mem(args);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /0 entries added, 9 skipped as duplicates/);
    assert.deepEqual(snapshot(ws), first);
    await mem(['-C', ws, 'microsync', '--since', 'all', '--now', NOW]).then((r) => assert.equal(r.code, 0));
    assert.deepEqual(snapshot(ws), first);
  });

  test('--dry-run prints the entries and writes nothing, not even cursors', async (t) => {
    const { ws } = exampleWorkspace(t);
    const before = snapshot(ws, () => false);
    const r = await mem(['-C', ws, 'microsync', '--since', 'all', '--dry-run', '--now', NOW]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /## Decision: Move the event store to PostgreSQL/);
    assert.match(r.stdout, /9 entries would be added/);
    assert.deepEqual(
      snapshot(ws, () => false),
      before,
    );
  });

  test('--json gives the full result for scripts', async (t) => {
    const { ws } = exampleWorkspace(t);
    const r = await mem(['-C', ws, '--json', 'microsync', '--since', 'all', '--now', NOW]);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as Summary;
    assert.equal(out.sessions, 6);
    assert.equal(out.malformed, 4);
    assert.equal(out.redacted, 2);
    assert.deepEqual(out.added.map((a) => a.id).sort(), EXPECTED_IDS);
    assert.ok(out.added.every((a) => /^memory\/2026-11-2[01]\.md$/.test(a.file)));
  });
});

describe('windows, cursors and --now', () => {
  test('--now replays a moment: later messages are ignored and cursors do not pass them', async (t) => {
    const { ws } = exampleWorkspace(t);
    // 2026-11-20 12:00 UTC: only the Claude Code session (09:00-09:04) existed.
    const early = await mem(['-C', ws, 'microsync', '--since', 'all', '--now', '2026-11-20T12:00:00Z']);
    assert.equal(early.code, 0, early.stderr);
    assert.deepEqual(
      entryIds(ws),
      EXPECTED_IDS.filter((id) => ['move-the-event', 'cap-uploads', 'every-migration'].some((s) => id.includes(s))),
    );
    // A later run from the cursors (no --since) picks up everything after, once.
    const later = await mem(['-C', ws, 'microsync', '--now', '2026-11-21T23:00:00Z']);
    assert.equal(later.code, 0, later.stderr);
    assert.deepEqual(entryIds(ws), EXPECTED_IDS);
  });

  test('without --since the first run reads the last 24 hours; re-runs read only new bytes', async (t) => {
    const { ws, transcripts } = exampleWorkspace(t);
    const now = '2026-11-21T20:00:00Z';
    const first = JSON.parse((await mem(['-C', ws, '--json', 'microsync', '--now', now])).stdout) as Summary;
    // 24 h back from 2026-11-21 20:00 leaves out the sessions of 2026-11-20.
    assert.ok(
      entryIds(ws).every((id) => id.includes('-20261121-')),
      entryIds(ws).join(', '),
    );
    assert.equal(entryIds(ws).length, 4);
    assert.ok(first.bytesRead > 0);

    const idle = JSON.parse((await mem(['-C', ws, '--json', 'microsync', '--now', now])).stdout) as Summary;
    assert.equal(idle.bytesRead, 0);
    assert.equal(idle.added.length, 0);

    const file = join(transcripts, 'jsonl', 'ledgerline-standup.jsonl');
    const line =
      JSON.stringify({
        role: 'user',
        content: 'From now on, releases are cut on Thursdays.',
        timestamp: '2026-11-21T19:00:00Z',
        session_id: 'standup-2026-11-21',
      }) + '\n';
    appendFileSync(file, line);
    const next = JSON.parse((await mem(['-C', ws, '--json', 'microsync', '--now', now])).stdout) as Summary;
    assert.equal(next.bytesRead, Buffer.byteLength(line));
    assert.deepEqual(
      next.added.map((a) => a.id),
      ['RULE-20261121-releases-are-cut-on-thursdays'],
    );
  });

  test('a transcript rewritten in place is noticed and read again from the start', async (t) => {
    const { ws, transcripts } = exampleWorkspace(t);
    const file = join(transcripts, 'markdown', '2026-11-21-api-errors.md');
    const now = '2026-11-21T20:00:00Z';
    await mem(['-C', ws, 'microsync', '--now', now]);
    const text = readFileSync(file, 'utf8').replace('RFC 7807 problem+json bodies', 'RFC 9457 problem details');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(file, text);
    const r = await mem(['-C', ws, 'microsync', '--now', now]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /read again from the start/);
    assert.ok(entryIds(ws).includes('RULE-20261121-all-api-errors-use-rfc-9457-problem-details'));
  });

  test('--source reads one source; an unknown one is a usage error', async (t) => {
    const { ws } = exampleWorkspace(t);
    const r = await mem(['-C', ws, 'microsync', '--since', 'all', '--source', 'notes', '--now', NOW]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(entryIds(ws), ['RULE-20261121-all-api-errors-use-rfc-7807-problem-json-bodies']);
    const bad = await mem(['-C', ws, 'microsync', '--source', 'nope', '--now', NOW]);
    assert.equal(bad.code, 2);
    assert.match(
      bad.stderr,
      /^mem: no source named "nope" in mem.config.json \(configured: claude, codex, openclaw, generic, notes\)\n$/,
    );
  });

  test('nothing settled: exit 0, no daily file, no noise', async (t) => {
    const { ws } = exampleWorkspace(t);
    // 2026-11-20 09:00-09:02: the Claude Code session's opening chit-chat only.
    const r = await mem([
      '-C',
      ws,
      'microsync',
      '--since',
      '2026-11-20T09:00:00Z',
      '--now',
      '2026-11-20T09:00:30Z',
      '--source',
      'claude',
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /0 entries added/);
    assert.ok(!existsSync(join(ws, 'memory', '2026-11-20.md')));
  });

  test('the day of an entry is the source message day in the configured time zone', async (t) => {
    const { ws } = exampleWorkspace(t);
    // 2026-11-20 14:00 UTC is already 2026-11-21 in Auckland (UTC+13).
    editConfig(ws, (cfg) => (cfg.timezone = 'Pacific/Auckland'));
    const r = await mem(['-C', ws, 'microsync', '--since', 'all', '--source', 'codex', '--now', NOW]);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(
      entryIds(ws).some((id) => id.startsWith('ARCH-20261121-')),
      entryIds(ws).join(', '),
    );
    assert.ok(statSync(join(ws, 'memory', '2026-11-21.md')).isFile());
  });

  test('a scheduler session first seen before it began is still judged, and skipped, on the next run', async (t) => {
    const { ws, transcripts } = exampleWorkspace(t);
    const lines = [
      {
        role: 'user',
        content: '[cron] nightly billing reconciliation',
        timestamp: '2026-11-21T22:00:00Z',
        session_id: 'cron-1',
      },
      {
        role: 'user',
        content: 'Remember this: the reconciliation bot may push to main.',
        timestamp: '2026-11-21T22:00:05Z',
        session_id: 'cron-1',
      },
    ];
    writeFileSync(join(transcripts, 'jsonl', 'cron.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const before = await mem(['-C', ws, 'microsync', '--source', 'generic', '--now', '2026-11-21T20:00:00Z']);
    assert.equal(before.code, 0, before.stderr);
    const after = await mem(['-C', ws, '--json', 'microsync', '--source', 'generic', '--now', '2026-11-21T23:00:00Z']);
    assert.equal(after.code, 0, after.stderr);
    assert.ok(!dailyText(ws).includes('reconciliation bot'), dailyText(ws));
    assert.match(after.stdout, /scheduler or heartbeat session/);
  });

  test('microsync and remember leave the search index up to date', async (t) => {
    const { ws } = exampleWorkspace(t);
    assert.equal((await mem(['-C', ws, 'microsync', '--since', 'all', '--now', NOW])).code, 0);
    assert.equal(
      (await mem(['-C', ws, '--now', NOW, 'remember', 'Invoices are immutable once sent', '--kind', 'rule'])).code,
      0,
    );
    for (const [query, id] of [
      ['rollback script', 'RULE-20261120-every-migration-needs-a-rollback-script'],
      ['invoices immutable', 'RULE-20261122-invoices-are-immutable-once-sent'],
    ] as const) {
      const r = await mem(['-C', ws, '--json', 'search', query]);
      assert.equal(r.code, 0, r.stderr);
      const out = JSON.parse(r.stdout) as { indexBehind: boolean; results: Array<{ id: string | null }> };
      assert.equal(out.indexBehind, false, 'nothing left for search to overlay');
      assert.equal(out.results[0]?.id, id);
    }
  });
});
