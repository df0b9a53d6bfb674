/**
 * A hard-forgotten entry is never learned again from the transcripts it came from: not by the
 * microsync catch-up of compound or wrapup (which read their window whatever the cursors say), not
 * by a `--since all` back-fill, not as a wrap-up bullet. Only salted one-way hashes are kept, in the
 * committed `memory/.forgotten` (test/forget-marks-travel.test.ts);
 * `mem remember` brings one back on purpose.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { memOk } from './helpers/cli.js';
import { markdownFiles, weekWorkspace } from './helpers/week-fixture.js';

const NOW = ['--now', '2026-11-23T06:00'];
const RULE = 'RULE-20261116-every-pr-needs-at-least-one-reviewer';
/** The same rule said again in the OpenClaw main agent's session: global, so an entry of its own (issue 27). */
const GLOBAL_RULE = 'RULE-20261119-every-pr-needs-at-least-one-reviewer';
const NOTE = 'NOTE-20261119-the-staging-server-restarts-every-night-at-02-00-utc';
const TEXTS = [/at least one reviewer/i, /staging server restarts/i];

function named(ws: string): string[] {
  return [...markdownFiles(ws)]
    .filter(
      ([, text]) => [RULE, GLOBAL_RULE, NOTE].some((id) => text.includes(id)) || TEXTS.some((re) => re.test(text)),
    )
    .map(([rel]) => rel);
}

test('after forget --hard, compound and wrapup catch-ups, a back-fill and a wrap-up rerun learn nothing back; remember does', async (t) => {
  const { ws } = weekWorkspace(t, '2026-11-20');
  const M = ['-C', ws, ...NOW];
  await memOk([...M, 'microsync', '--since', 'all']);
  await memOk([...M, 'wrapup', '--date', '2026-11-19']);
  await memOk([...M, 'forget', RULE, GLOBAL_RULE, NOTE, '--hard', '--yes']);
  assert.deepEqual(named(ws), []);
  // Each section it emptied reads as wrapup writes an empty one (a session's own section follows its heading).
  const summary = readFileSync(join(ws, 'second-brain/summaries/2026-11-19-wrapup.md'), 'utf8');
  assert.doesNotMatch(summary, /^## .*\n(?!- |\n### )/m, summary);

  const compound = JSON.parse((await memOk([...M, '--json', 'compound'])).stdout) as { catchUp: { added: number } };
  assert.equal(compound.catchUp.added, 0);
  // The 19th restates the rule and holds the note: the rerun's summary tells neither.
  const wrapup = JSON.parse((await memOk([...M, '--json', 'wrapup', '--date', '2026-11-19'])).stdout) as {
    catchUp: { added: number };
    written: string[];
  };
  assert.equal(wrapup.catchUp.added, 0);
  assert.deepEqual(
    wrapup.written,
    ['second-brain/summaries/2026-11-19-wrapup.md'],
    "the summary forget edited is still wrapup's own: rewritten, no -v2 beside it",
  );
  const backfill = await memOk([...M, 'microsync', '--since', 'all']);
  assert.match(backfill.stdout, /0 entries added, \d+ skipped as duplicates, 3 held back as hard-forgotten/);
  assert.deepEqual(named(ws), []);
  const record = readFileSync(join(ws, 'memory/.forgotten'), 'utf8');
  assert.ok(![RULE, NOTE, 'reviewer', 'staging'].some((s) => record.includes(s)), record);

  await memOk([...M, 'remember', 'Every PR needs at least one reviewer', '--kind', 'rule']);
  assert.match(
    readFileSync(join(ws, 'memory/2026-11-23.md'), 'utf8'),
    /## Rule: Every PR needs at least one reviewer\n/,
  );
});
