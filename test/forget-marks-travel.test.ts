/**
 * Hard-forget marks travel with the memory (issue 29 item 6): they are a committed file
 * (`memory/.forgotten`, salted hashes, merged by git as a union of lines), so a second clone's
 * back-fill and a run after `rm -rf .mem` honour them; the per-machine `.mem/forgotten.json` of older
 * versions migrates into it; and a wrap-up line naming a forgotten entry by title alone goes too.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { memOk } from './helpers/cli.js';
import { gitOk } from './helpers/git.js';
import { weekWorkspace } from './helpers/week-fixture.js';

const git = gitOk;

const TASK = 'TASK-20261116-add-a-smoke-test-for-the-login-flow';
const REDIS = 'DECISION-20261116-use-redis-for-the-session-cache';
const NOTE = 'NOTE-20261117-周五下午不发布新版本';
const MARKS = 'memory/.forgotten';

/** Every file of a workspace outside .git/ (the index, the archive tier and the logs included). */
const filesUnder = (ws: string) =>
  (
    readdirSync(ws, { recursive: true, withFileTypes: true }) as Array<{
      isFile(): boolean;
      parentPath: string;
      name: string;
    }>
  )
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(ws.length + 1))
    .filter((f) => !f.startsWith('.git/'));

test('forget marks are committed: migrated from .mem/, merged as a union, honoured by a clone and after rm -rf .mem', async (t) => {
  const { root, ws: a } = weekWorkspace(t, '2026-11-17');
  const b = join(root, 'clone');
  await memOk(['init', a]);
  // An older version's per-machine record: an unsalted mark of the task's id.
  const legacy = join(a, '.mem/forgotten.json');
  mkdirSync(dirname(legacy), { recursive: true });
  writeFileSync(
    legacy,
    JSON.stringify({ version: 1, sha256: [createHash('sha256').update(`id:${TASK}`).digest('hex')] }),
  );

  const A = ['-C', a, '--now', '2026-11-23T06:00'];
  assert.match((await memOk([...A, 'microsync', '--since', 'all'])).stdout, /1 held back as hard-forgotten/);
  assert.ok(!existsSync(legacy), 'the old record is migrated, then gone');
  const marks = readFileSync(join(a, MARKS), 'utf8');
  assert.match(marks, /^salt [0-9a-f]{32}$/m);
  assert.ok(!marks.includes(createHash('sha256').update(`id:${TASK}`).digest('hex')), 'the migrated mark is salted');
  assert.match(readFileSync(join(a, '.gitattributes'), 'utf8'), /^memory\/\.forgotten merge=union$/m);
  await memOk([...A, 'wrapup', '--date', '2026-11-16']);
  await git(a, 'init', '-q', '-b', 'main');
  await git(a, 'add', '-A');
  await git(a, 'commit', '-q', '-m', 'memory');
  await git(root, 'clone', '-q', a, b);

  // Each machine forgets one entry (in other files and weeks, so only the marks file is shared).
  const redisConclusion = /^- conclusion: (.*)$/m.exec(
    readFileSync(join(a, 'memory/2026-11-16.md'), 'utf8').split(`- id: ${REDIS}`)[1]!,
  )![1]!;
  await memOk([...A, 'forget', REDIS, '--hard', '--yes']);
  // No unsalted hash of the forgotten id or text is left anywhere (a table of hashed ids or phrases
  // would find it): the weekly log names it by the start of its salted mark in memory/.forgotten.
  const unsalted = [
    REDIS,
    `id:${REDIS}`,
    redisConclusion,
    `conclusion:${redisConclusion
      .toLowerCase()
      .replace(/[\s\p{P}]+/gu, ' ')
      .trim()}`,
  ].flatMap((x) => {
    const h = createHash('sha256').update(x).digest('hex');
    return [h, h.slice(0, 12)];
  });
  for (const file of filesUnder(a)) {
    const text = readFileSync(join(a, file), 'latin1');
    for (const h of unsalted)
      assert.ok(!text.includes(h), `${file} holds an unsalted hash ${h} of the forgotten entry`);
  }
  const removedLine = /^- removed: entry mark:([0-9a-f]{12}) from \d+ file\(s\) by `mem forget --hard`$/m.exec(
    readFileSync(join(a, 'memory/archive/weekly-2026-W48.md'), 'utf8'),
  );
  assert.ok(removedLine, 'the weekly log says what was removed');
  assert.match(
    readFileSync(join(a, MARKS), 'utf8'),
    new RegExp(`^${removedLine[1]}[0-9a-f]{52}$`, 'm'),
    'its mark is the start of a line of memory/.forgotten',
  );
  const summary = readFileSync(join(a, 'second-brain/summaries/2026-11-16-wrapup.md'), 'utf8');
  assert.ok(
    !summary.includes('Use Redis for the session cache'),
    `the wrap-up line listing its title goes too:\n${summary}`,
  );
  await git(a, 'add', '-A');
  await git(a, 'commit', '-q', '-m', 'forget on a');
  const B = ['-C', b, '--now', '2026-11-30T06:00'];
  await memOk([...B, 'forget', NOTE, '--hard', '--yes']);
  await git(b, 'add', '-A');
  await git(b, 'commit', '-q', '-m', 'forget on b');
  await git(b, 'pull', '-q', '--no-rebase', '--no-edit', 'origin', 'main');
  assert.equal(await git(b, 'diff', '--name-only', '--diff-filter=U'), '');
  assert.equal(readFileSync(join(b, MARKS), 'utf8').match(/^salt /gm)?.length, 1, 'one salt per workspace');

  // The clone's back-fill learns none of the three; nor does the first machine's after rm -rf .mem.
  rmSync(join(b, '.mem'), { recursive: true, force: true });
  assert.match(
    (await memOk([...B, 'microsync', '--since', 'all'])).stdout,
    /0 entries added, \d+ skipped as duplicates, 3 held back as hard-forgotten/,
  );
  rmSync(join(a, '.mem'), { recursive: true, force: true });
  assert.match(
    (await memOk([...A, 'microsync', '--since', 'all'])).stdout,
    /0 entries added, \d+ skipped as duplicates, 2 held back as hard-forgotten/,
  );
  for (const ws of [a, b]) {
    const days = ['2026-11-16', '2026-11-17'].map((d) => readFileSync(join(ws, `memory/${d}.md`), 'utf8')).join('\n');
    assert.ok(![TASK, REDIS, ws === b ? NOTE : TASK].some((id) => days.includes(id)), days);
  }
});
