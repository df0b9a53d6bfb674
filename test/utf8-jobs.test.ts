/**
 * Jobs that write text made from entries never write U+FFFD for bytes that are not UTF-8 (a daily
 * file or MEMORY.md saved as Latin-1): compound and wrapup leave such an entry out with a warning
 * naming file and line, export refuses, compound refuses a MEMORY.md it would rewrite, lint and
 * status name the file; the bytes stay as they were. Built CLI, temp dirs.
 */
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { mem, memOk, snapshot, tempDir } from './helpers/cli.js';

const RULE = 'RULE-20261120-deploys-happen-on-tuesdays-only';
const LATIN1 = Buffer.from(
  '\n## Note: caf\xe9 latin1\n- id: NOTE-20261120-cafe\n- date: 2026-11-20\n- conclusion: caf\xe9\n- status: active\n',
  'latin1',
);
const CONVERT = 'convert the file to UTF-8 (e.g. iconv -f latin1 -t utf-8) and run again';

/** A workspace whose 2026-11-20 daily file holds a UTF-8 rule and, from line 11, a Latin-1 note. */
async function latin1Workspace(t: {
  after(fn: () => void): void;
}): Promise<{ ws: string; daily: string; bytes: Buffer }> {
  const ws = join(tempDir(t), 'w');
  await memOk(['init', '-q', ws]);
  await memOk(
    ['-C', ws, 'remember', 'Deploys happen on Tuesdays only', '--kind', 'rule', '--now', '2026-11-20T10:00:00Z'],
    { cwd: ws },
  );
  const daily = join(ws, 'memory', '2026-11-20.md');
  appendFileSync(daily, LATIN1);
  return { ws, daily, bytes: readFileSync(daily) };
}

/** Files holding U+FFFD as read back as UTF-8: only those that had bad bytes to begin with. */
const garbledFiles = (ws: string) =>
  [...snapshot(ws)].filter(([, text]) => text.includes('\uFFFD')).map(([rel]) => rel);

test('compound and wrapup leave an entry that is not UTF-8 out with a warning naming file and line; the rest of its file is used, its bytes stay', async (t) => {
  const { ws, daily, bytes } = await latin1Workspace(t);
  const compound = await mem(['-C', ws, 'compound', '--now', '2026-11-24T10:00:00Z', '--json']);
  assert.equal(compound.code, 0, compound.stderr);
  assert.match(
    compound.stderr,
    new RegExp(
      `^warning: compound 2026-W47: memory/2026-11-20\\.md:11: NOTE-20261120-cafe: not valid UTF-8, so it was left out of MEMORY\\.md; ${CONVERT.replace(/[().]/g, '\\$&')}$`,
      'm',
    ),
  );
  assert.deepEqual(JSON.parse(compound.stdout).promoted, [RULE]);
  assert.match(readFileSync(join(ws, 'MEMORY.md'), 'utf8'), /^- Deploys happen on Tuesdays only /m);

  const wrapup = await mem(['-C', ws, 'wrapup', '--now', '2026-11-21T10:00:00Z']);
  assert.equal(wrapup.code, 0, wrapup.stderr);
  assert.match(
    wrapup.stderr,
    /^warning: wrapup 2026-11-20: memory\/2026-11-20\.md:11: NOTE-20261120-cafe: not valid UTF-8, so it was left out of the summary; /m,
  );
  assert.match(
    readFileSync(join(ws, 'second-brain', 'summaries', '2026-11-20-wrapup.md'), 'utf8'),
    new RegExp(`^- Rule: Deploys happen on Tuesdays only — \\[${RULE}\\]`, 'm'),
  );

  assert.deepEqual(garbledFiles(ws), ['memory/2026-11-20.md']);
  assert.deepEqual(readFileSync(daily), bytes, 'byte for byte as it was');

  // Converted, the note is taken in by the next run.
  writeFileSync(daily, bytes.toString('latin1'));
  const again = await memOk(['-C', ws, 'compound', '--now', '2026-11-24T11:00:00Z', '--json']);
  assert.deepEqual(JSON.parse(again.stdout).promoted, ['NOTE-20261120-cafe']);
  assert.match(readFileSync(join(ws, 'MEMORY.md'), 'utf8'), /^- café latin1: café /m);
});

test('lint and status name a memory file that is not UTF-8; search and get still show its entries', async (t) => {
  const { ws } = await latin1Workspace(t);
  const lint = await mem(['-C', ws, 'lint']);
  assert.equal(lint.code, 5);
  assert.equal(
    lint.stdout,
    'memory/2026-11-20.md:11: not valid UTF-8 (2 lines; Latin-1 saved by an old editor?): compound and wrapup leave the entries holding such bytes out, and a job that must rewrite the file stops; convert it (e.g. iconv -f latin1 -t utf-8)\nlint: 2 entries, 1 problem\n',
  );
  const status = JSON.parse((await mem(['-C', ws, 'status', '--json'])).stdout);
  assert.equal(status.governance.checks.find((c: { name: string }) => c.name === 'lint').ok, false);
  assert.match((await memOk(['-C', ws, 'search', 'latin1'])).stdout, /NOTE-20261120-cafe/);
  assert.match((await memOk(['-C', ws, 'get', 'NOTE-20261120-cafe'])).stdout, /^## Note: caf\uFFFD latin1$/m);
});

test('export refuses, naming the entry, rather than write a backup holding U+FFFD or missing an entry', async (t) => {
  const { ws } = await latin1Workspace(t);
  const out = join(ws, '..', 'export.json');
  for (const args of [['export'], ['export', '--format', 'md', '--out', out]]) {
    const r = await mem(['-C', ws, ...args]);
    assert.equal(r.code, 1, r.stdout);
    assert.equal(r.stdout, '');
    assert.equal(
      r.stderr,
      `mem: memory/2026-11-20.md:11: NOTE-20261120-cafe: not valid UTF-8, so nothing was exported (its bytes would come out as U+FFFD); ${CONVERT}\n`,
    );
  }
  assert.deepEqual(
    [...snapshot(join(ws, '..'))].map(([rel]) => rel).filter((rel) => !rel.startsWith('w/')),
    [],
  );
});

test('compound refuses a MEMORY.md that is not UTF-8 (Latin-1 pinned text) before writing anything', async (t) => {
  const ws = join(tempDir(t), 'w');
  await memOk(['init', '-q', ws]);
  await memOk(
    ['-C', ws, 'remember', 'Deploys happen on Tuesdays only', '--kind', 'rule', '--now', '2026-11-20T10:00:00Z'],
    { cwd: ws },
  );
  const file = join(ws, 'MEMORY.md');
  const text = readFileSync(file, 'latin1');
  const line = text.slice(0, text.indexOf('<!-- mem:pinned:end -->')).split('\n').length;
  writeFileSync(
    file,
    text.replace('<!-- mem:pinned:end -->', '- Pinned: caf\xe9 au lait\n<!-- mem:pinned:end -->'),
    'latin1',
  );
  const before = snapshot(ws);
  for (const dry of [[], ['--dry-run']]) {
    const r = await mem(['-C', ws, 'compound', '--now', '2026-11-24T10:00:00Z', ...dry]);
    assert.equal(r.code, 1, r.stdout);
    assert.equal(
      r.stderr,
      `mem: cannot rewrite MEMORY.md: line ${line} is not valid UTF-8; ${CONVERT}; nothing was written\n`,
    );
  }
  assert.deepEqual(snapshot(ws), before);
});

test('compound keeps the MEMORY.md item of an entry whose file later gets a byte that is not UTF-8, and logs it as held back, not demoted', async (t) => {
  const ws = join(tempDir(t), 'w');
  await memOk(['init', '-q', ws]);
  await memOk(
    ['-C', ws, 'remember', 'Deploys happen on Tuesdays only', '--kind', 'rule', '--now', '2026-11-20T10:00:00Z'],
    { cwd: ws },
  );
  await memOk(['-C', ws, 'compound', '--week', '2026-W47', '--now', '2026-11-24T10:00:00Z']);
  const item = /^- Deploys happen on Tuesdays only .*$/m.exec(readFileSync(join(ws, 'MEMORY.md'), 'utf8'))![0];
  const daily = join(ws, 'memory', '2026-11-20.md');
  const text = readFileSync(daily, 'utf8');
  const at = text.lastIndexOf('Tuesdays');
  writeFileSync(
    daily,
    Buffer.concat([Buffer.from(text.slice(0, at)), Buffer.from([0xe9]), Buffer.from(text.slice(at + 1))]),
  );

  const run = await mem(['-C', ws, 'compound', '--week', '2026-W48', '--now', '2026-12-01T10:00:00Z', '--json']);
  assert.equal(run.code, 0, run.stderr);
  assert.match(
    run.stderr,
    new RegExp(
      `^warning: compound 2026-W48: memory/2026-11-20\\.md:6: ${RULE}: not valid UTF-8, so its MEMORY\\.md item was kept as it was; `,
      'm',
    ),
  );
  const out = JSON.parse(run.stdout);
  assert.deepEqual([out.items, out.promoted, out.demoted], [1, [], []]);
  const memory = readFileSync(join(ws, 'MEMORY.md'), 'utf8');
  assert.match(memory, /^<!-- mem:generated .* 2026-W48 /m);
  assert.ok(memory.includes(`## Core rules\n${item}\n`), 'the item as it was, in its section');
  const log = readFileSync(join(ws, 'memory', 'archive', 'weekly-2026-W48.md'), 'utf8');
  assert.match(
    log,
    new RegExp(
      `^- held back: ${RULE}: kept in MEMORY\\.md as it was \\(memory/2026-11-20\\.md is not valid UTF-8; convert it, e\\.g\\. iconv -f latin1 -t utf-8\\)$`,
      'm',
    ),
  );
  assert.doesNotMatch(log, /demoted/);
  assert.deepEqual(garbledFiles(ws), ['memory/2026-11-20.md']);

  // Run again in the week: the same plan, nothing written.
  const before = snapshot(ws);
  await memOk(['-C', ws, 'compound', '--week', '2026-W48', '--now', '2026-12-01T11:00:00Z']);
  assert.deepEqual(snapshot(ws), before);
});
