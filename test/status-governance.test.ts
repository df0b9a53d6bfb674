/**
 * `mem status`'s governance from the entry table (issue 28): what it shows of the entries (entries per
 * daily file, conflicts, suspected conflicts, the lint count) equals what parsing every file gives
 * (lintEntries and findConflicts on the parsed records, as status computed it before), whether
 * .mem/entries/governance.json is stored, stale after a hand edit, or gone; status never writes it.
 * A job that writes Markdown stores it after its append, and so does the full CLI's `mem index`; the
 * lean `mem index` never does (it loads no lint, search-lean.test.ts), so after it status computes
 * the summary itself.
 */
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { memOk, mem, tempDir } from './helpers/cli.js';
import { loadRecorder } from './helpers/loaded.js';
import { daily, entry, workspace } from './fixtures/governance/workspace.js';
import { findConflicts } from '../src/entries/active-conflicts.js';
import { lintEntries } from '../src/entries/lint.js';
import { readMemoryFiles, recordsOf } from '../src/entries/store.js';

const D = '2026-11-20';
const E = '2026-11-21';

/** The governance part of status as status computed it before the table: every file parsed. */
async function parsedEveryFile(ws: string) {
  const files = await readMemoryFiles(ws);
  const records = files.flatMap((f) => recordsOf(f.file, f.text));
  const { conflicts, suspected } = findConflicts(records);
  return { conflicts, suspected, lint: lintEntries(records, files, { maxEntriesPerDailyFile: 300 }).length };
}

/** What parsing every file gives too: the entry checks, without the fullest daily file and the longest summary. */
const entriesPart = (x: object) => ({ ...x, daily: undefined, summaryLines: undefined });

async function shown(ws: string, env?: Record<string, string>) {
  const r = await mem(['-C', ws, '--json', 'status'], { env });
  const g = JSON.parse(r.stdout).governance as {
    checks: { name: string; value: number; message: string }[];
    conflicts: unknown[];
    suspectedConflicts: unknown[];
  };
  return {
    conflicts: g.conflicts,
    suspected: g.suspectedConflicts,
    lint: g.checks.find((c) => c.name === 'lint')!.value,
    daily: g.checks.find((c) => c.name === 'dailyEntries')!.value,
    summaryLines: g.checks.find((c) => c.name === 'summaryLines')!.value,
  };
}

test('status governance: stored, stale after a hand edit, and without .mem/ it equals parsing every file', async (t) => {
  const ws = workspace(t, {
    'second-brain/summaries/2026-11-20-wrapup.md': 'one\ntwo\nthree\n',
    'second-brain/summaries/2026-11-21-wrapup.md': 'one\ntwo',
    [`memory/${D}.md`]: daily(D, [
      entry({
        id: 'DECISION-20261120-cache-in-redis',
        title: 'Cache sessions in Redis for the shop',
        date: D,
        fields: { key: 'decision:shop:cache', conclusion: 'sessions cached in Redis' },
      }),
      entry({
        id: 'DECISION-20261120-cache-in-memcached',
        title: 'Cache sessions in Memcached for the shop',
        date: D,
        fields: { key: 'decision:shop:cache', conclusion: 'sessions cached in Memcached' },
      }),
      entry({
        id: 'RULE-20261120-deploy-on-tuesdays',
        title: 'Deploy the shop on Tuesdays only',
        date: D,
        fields: { conclusion: 'deploys on Tuesdays only', supersedes: 'RULE-20261101-gone' },
      }),
      entry({
        id: 'RULE-20261120-deploy-tuesdays',
        title: 'Deploy the shop on Tuesdays only please',
        date: D,
        fields: { conclusion: 'deploys on Tuesdays only' },
      }),
      entry({
        id: 'NOTE-20261120-bad-date',
        title: 'A note with a bad date',
        date: '2026-13-40',
        fields: { origin: 'martian' },
      }),
    ]),
    [`memory/${E}.md`]: daily(E, [entry({ id: 'NOTE-20261120-bad-date', title: 'The same id again', date: E })]),
  });
  await memOk(['-C', ws, 'index']);
  const stored = join(ws, '.mem', 'entries', 'governance.json');
  assert.ok(
    existsSync(join(ws, '.mem', 'entries', 'stamps.json')) && !existsSync(stored),
    'mem index stores the table, not the summary',
  );
  const indexedOnly = await parsedEveryFile(ws);
  assert.deepEqual(
    entriesPart(await shown(ws)),
    entriesPart(indexedOnly),
    'without a stored summary status computes it',
  );
  // A job that writes Markdown (here remember) stores the summary after its append.
  const remember = (text: string) =>
    memOk(['-C', ws, '--now', `${E}T12:00:00Z`, 'remember', text, '--scope', 'global']);
  await remember('The shop runs on Node 22');
  assert.ok(existsSync(stored), 'a job that writes Markdown stores the summary');
  const expected = await parsedEveryFile(ws);
  assert.ok(
    expected.conflicts.length >= 1 && expected.suspected.length >= 1 && expected.lint >= 4,
    'the fixture has conflicts, suspected ones and lint problems of both kinds',
  );
  const rec = loadRecorder(tempDir(t, 'memfold-status-hook-'));
  const fromStore = await shown(ws, rec.env);
  const loaded = rec.take();
  assert.doesNotMatch(loaded, /node_modules\/luxon\//, 'a stored summary is read without the lint code (luxon)');
  assert.match(loaded, /dist\/cli\/status\.cjs/, 'a plain status runs from its bundle');
  assert.doesNotMatch(loaded, /status-(stale|fix)\.cjs/, 'neither the recount nor --fix is compiled for it');
  assert.deepEqual(entriesPart(fromStore), entriesPart(expected));
  assert.deepEqual([fromStore.daily, fromStore.summaryLines], [5, 3], 'the fullest daily file, the longest summary');
  assert.ok(
    existsSync(join(ws, '.mem', 'entries', 'summary-lines.json')),
    "the summaries' line counts are stored with it",
  );
  // A summary edited since: its stored count is stale and it is read again (4 lines, the last without a newline).
  appendFileSync(join(ws, 'second-brain', 'summaries', '2026-11-21-wrapup.md'), '\nthree\nfour');
  assert.equal((await shown(ws)).summaryLines, 4);
  // The screen counts the conflicts from the stored summary without reading their list.
  assert.match(
    (await mem(['-C', ws, 'status'])).stdout,
    new RegExp(
      `WARN ${expected.conflicts.length} conflicting active entry (pair|groups): ${expected.conflicts[0]!.reason}`,
    ),
  );

  // A hand edit: a third entry with the contested key and one naming a missing entry; the summary is now stale.
  const mtime = statSync(stored).mtimeMs;
  appendFileSync(
    join(ws, 'memory', `${E}.md`),
    '\n' +
      entry({
        id: 'DECISION-20261121-cache-in-process',
        title: 'Cache in process',
        date: E,
        fields: { key: 'decision:shop:cache', retracts: 'NOTE-20261101-missing' },
      }),
  );
  const edited = await parsedEveryFile(ws);
  assert.notDeepEqual(edited, expected);
  assert.deepEqual(entriesPart(await shown(ws, rec.env)), entriesPart(edited), 'the hand edit is in the next status');
  assert.match(rec.take(), /dist\/cli\/status-stale\.cjs/, 'the stale summary is recounted by its own bundle');
  assert.equal(statSync(stored).mtimeMs, mtime, 'status never writes the summary');
  await memOk(['-C', ws, 'index']);
  assert.equal(statSync(stored).mtimeMs, mtime, 'nor does mem index');

  // The full CLI's mem index (lint loaded anyway) stores the edited summary, the hand-edited file's own lint counted again; without .mem/ status parses every file and says the same.
  await memOk(['-C', ws, 'index'], { env: { MEM_LEAN_CLI: '0' } });
  assert.notEqual(statSync(stored).mtimeMs, mtime, 'MEM_LEAN_CLI=0 mem index stores it');
  const again = await parsedEveryFile(ws);
  assert.deepEqual(JSON.parse(readFileSync(stored, 'utf8')).summary.lint, again.lint);
  const indexed = await shown(ws);
  assert.deepEqual(entriesPart(indexed), entriesPart(again));
  rmSync(join(ws, '.mem'), { recursive: true, force: true });
  assert.deepEqual(await shown(ws), indexed);
  assert.ok(!existsSync(join(ws, '.mem', 'entries')), 'status left no table behind');
});
