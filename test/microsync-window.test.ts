/**
 * What a microsync run says about its window and sources (issue 31): the first run reads the last
 * 24 hours, counts only the turns it read, names what it left out and the back-fill command (`-v`:
 * per source); a source not found is a warning, not a failed run. Real CLI runs on the bundled example.
 */
import assert from 'node:assert/strict';
import { symlinkSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { editConfig, exampleWorkspace, mem } from './helpers/cli.js';

interface Result {
  turns: number;
  outside: { turns: number; files: number };
  window: { start: string | null; firstRun: boolean };
  backfill: string | null;
  bySource: Array<{ source: string; turns: number; outsideTurns: number; outsideFiles: number }>;
}

const NOW = '2026-11-21T20:00:00Z';

test('the first run counts only turns in its 24 hours, says what it left out and how to back-fill; -v adds each source', async (t) => {
  const { ws, transcripts } = exampleWorkspace(t);
  // The Claude Code session of 2026-11-20, untouched since: the first run does not even open it.
  const old = new Date('2026-11-20T10:00:00Z');
  utimesSync(
    join(transcripts, 'claude-code', '-home-dev-ledgerline', '5b0f3c8e-2d4a-4c71-9e3b-8a6f1d2c7e90.jsonl'),
    old,
    old,
  );
  const json = async (...args: string[]) =>
    JSON.parse((await mem(['-C', ws, '--json', 'microsync', '--dry-run', '--now', NOW, ...args])).stdout) as Result;
  const all = await json('--since', 'all');
  assert.deepEqual([all.outside, all.backfill], [{ turns: 0, files: 0 }, null], '--since all leaves nothing out');
  const first = await json();
  const claude = all.bySource.find((s) => s.source === 'claude')!.turns;
  assert.ok(first.outside.turns > 0 && first.turns > 0, JSON.stringify(first));
  assert.equal(
    first.turns + first.outside.turns + claude,
    all.turns,
    'every turn is read, before the window, or in a file not opened',
  );
  assert.equal(first.outside.files, 1);
  assert.deepEqual(
    [first.window, first.backfill],
    [{ start: '2026-11-20T20:00:00.000Z', firstRun: true }, 'mem microsync --since all'],
  );

  const r = await mem(['-C', ws, '-v', 'microsync', '--now', NOW]);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trimEnd().split('\n');
  assert.match(lines[0]!, new RegExp(`^microsync: \\d+ sessions read \\(6 files\\), ${first.turns} turns, `));
  assert.equal(
    lines[1],
    `not read: ${first.outside.turns} turns dated before the window and 1 transcript unchanged since it began (the first run reads the last 24 hours); "mem microsync --since all" reads them (ids keep it idempotent)`,
  );
  assert.match(r.stderr, /^claude: 1 file, 0 sessions read, 0 turns; 1 file unchanged since it began, not opened$/m);
  assert.match(r.stderr, /^codex: 2 files, 1 session read, \d+ turns; \d+ turns before the window$/m);

  const next = await mem(['-C', ws, 'microsync', '--now', NOW]);
  assert.doesNotMatch(next.stdout, /not read/, 'a run after the first (as scheduled) does not repeat it');
  const back = await mem(['-C', ws, 'microsync', '--since', 'all', '--now', NOW]);
  assert.match(back.stdout, new RegExp(`, ${all.turns} turns, [1-9]\\d* entr(y|ies) added`));
  assert.doesNotMatch(back.stdout, /not read/);
});

test('a source not found is a warning (exit 0, the others read) that status shows; an unreadable one, or none found, exits 1', async (t) => {
  const { root, ws } = exampleWorkspace(t);
  type Sources = Array<Record<string, string>>;
  const later = { name: 'later', kind: 'codex', path: '../not-installed/sessions' };
  editConfig(ws, (cfg) => (cfg.sources = [...(cfg.sources as Sources), later]));
  const r = await mem(['-C', ws, 'microsync', '--since', 'all', '--now', NOW]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stderr,
    /^warning: source "later": cannot read source path \S+\/not-installed\/sessions \(from "\.\.\/not-installed\/sessions"\): not found; skipped, the other sources are read$/m,
  );
  assert.match(r.stdout, /^microsync: 6 sessions read \(6 files\), 77 turns, 9 entries added/);
  const s = await mem(['-C', ws, 'status', '--strict']);
  assert.equal(s.code, 0, s.stdout);
  assert.match(
    s.stdout,
    /^sources claude 1 transcript, codex 2 transcripts, .*, later not found \(\.\.\/not-installed\/sessions; skipped with a warning\)$/m,
  );

  symlinkSync('loop', join(root, 'loop')); // a link to itself: stat fails with ELOOP, not "not found"
  editConfig(
    ws,
    (cfg) => (cfg.sources = [...(cfg.sources as Sources), { name: 'looped', kind: 'jsonl', path: '../loop' }]),
  );
  const u = await mem(['-C', ws, 'microsync', '--now', NOW]);
  assert.equal(u.code, 1);
  assert.match(u.stderr, /^mem: cannot read source path \S+\/loop \(from "\.\.\/loop"\): ELOOP\n$/m);
  const us = await mem(['-C', ws, 'status', '--strict']);
  assert.equal(us.code, 1);
  assert.match(us.stdout, /, looped unreadable$/m);

  editConfig(ws, (cfg) => (cfg.sources = [later]));
  const none = await mem(['-C', ws, 'microsync', '--now', NOW]);
  assert.equal(none.code, 1);
  assert.match(
    none.stderr,
    /^mem: no source could be read: "later" \(\.\.\/not-installed\/sessions\) not found; check "sources" in mem\.config\.json\n$/m,
  );
});
