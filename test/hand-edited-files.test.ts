/**
 * Jobs on files people edited by hand (DESIGN §5: parsing is tolerant, hand edits are normal): what a
 * job changes is what every reader then reads, and a rerun changes nothing. Indented field lists, a
 * byte order mark, a code fence left open, CRLF line endings, through the built CLI on temp workspaces.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { memOk, ROOT } from './helpers/cli.js';
import { workspace } from './fixtures/governance/workspace.js';

const NOW = ['--now', '2026-11-24T04:00'];
const TUE = 'RULE-20261117-deploys-happen-on-tuesdays-only';
const THU = 'RULE-20261118-deploys-happen-on-thursdays-only';
const read = (ws: string, rel: string) => readFileSync(join(ws, rel), 'utf8');
const json = (stdout: string) => JSON.parse(stdout) as Record<string, any>;

/** An entry whose field list is indented two spaces, as some editors and people write it. */
const indented = `## Rule: Deploys happen on Tuesdays only
  - id: ${TUE}
  - date: 2026-11-17
  - conclusion: Deploys happen on Tuesdays only
  - origin: manual
  - status: active
`;

describe('indented field lists', { concurrency: 2 }, () => {
  test('forget flips the status line readers read (not a second one at column 0); a rerun finds it retracted and logs nothing', async (t) => {
    const ws = workspace(t, { 'memory/2026-11-17.md': `# 2026-11-17\n\n${indented}` });
    await memOk(['-C', ws, ...NOW, 'forget', TUE]);
    assert.equal(
      read(ws, 'memory/2026-11-17.md'),
      `# 2026-11-17\n\n${indented.replace('status: active', 'status: retracted')}`,
    );
    const get = await memOk(['-C', ws, '--json', 'get', TUE]);
    assert.equal(json(get.stdout).fields.status, 'retracted');
    const log = read(ws, 'memory/archive/weekly-2026-W48.md');
    const again = await memOk(['-C', ws, ...NOW, '--json', 'forget', TUE]);
    assert.deepEqual(json(again.stdout).alreadyRetracted, [TUE]);
    assert.equal(read(ws, 'memory/archive/weekly-2026-W48.md'), log);
  });

  test('compound supersedes an indented entry in place, once: the next run changes nothing and lint is clean', async (t) => {
    const newer = `## Rule: Deploys happen on Thursdays only\n- id: ${THU}\n- date: 2026-11-18\n- conclusion: Deploys happen on Thursdays only\n- supersedes: ${TUE}\n- origin: manual\n- status: active\n`;
    const ws = workspace(t, {
      'memory/2026-11-17.md': `# 2026-11-17\n\n${indented}`,
      'memory/2026-11-18.md': `# 2026-11-18\n\n${newer}`,
    });
    const first = json((await memOk(['-C', ws, ...NOW, '--json', 'compound'])).stdout);
    assert.deepEqual(
      first.superseded.map((s: { id: string }) => s.id),
      [TUE],
    );
    assert.equal(
      read(ws, 'memory/2026-11-17.md'),
      `# 2026-11-17\n\n${indented.replace('status: active', 'status: superseded')}`,
    );
    const log = read(ws, 'memory/archive/weekly-2026-W47.md');
    const second = json((await memOk(['-C', ws, ...NOW, '--json', 'compound'])).stdout);
    assert.equal(second.changed, false);
    assert.deepEqual(second.superseded, []);
    assert.equal(read(ws, 'memory/archive/weekly-2026-W47.md'), log);
    await memOk(['-C', ws, 'lint']);
  });
});

describe('a byte order mark before the first heading (files saved by Windows editors)', () => {
  test('lint, get and search see the first entry, and forget --hard of it keeps the mark', async (t) => {
    const text = readFileSync(join(ROOT, 'fixtures/entries/bom.md'), 'utf8');
    const ws = workspace(t, { 'memory/projects/ops.md': text });
    const RULE = 'RULE-20261121-deploys-happen-on-tuesdays-only';
    assert.equal((await memOk(['-C', ws, 'lint'])).stdout, 'lint: 2 entries, 0 problems\n');
    await memOk(['-C', ws, 'get', RULE]);
    const hit = json((await memOk(['-C', ws, '--json', 'search', 'Tuesdays'])).stdout).results[0];
    assert.deepEqual([hit.id, hit.heading, hit.startLine], [RULE, 'Rule: Deploys happen on Tuesdays only', 1]);
    await memOk(['-C', ws, ...NOW, 'forget', '--hard', '--yes', RULE]);
    assert.equal(read(ws, 'memory/projects/ops.md'), `\uFEFF${text.slice(text.indexOf('## Note:'))}`);
  });
});

describe('a code fence left open at the end of a daily file', () => {
  test('remember closes it before appending: the entry is read (get, lint), and a rerun finds it instead of adding a copy', async (t) => {
    const ws = workspace(t, {});
    const at = ['--now', '2026-11-21T10:00'];
    await memOk(['-C', ws, ...at, 'remember', 'Deploys happen on Tuesdays only', '--kind', 'rule']);
    writeFileSync(join(ws, 'memory/2026-11-21.md'), `${read(ws, 'memory/2026-11-21.md')}\`\`\`sh\nnpm run deploy\n`);
    const before = read(ws, 'memory/2026-11-21.md');
    for (let i = 0; i < 2; i++) await memOk(['-C', ws, ...at, 'remember', 'Use pnpm not npm', '--kind', 'decision']);
    const after = read(ws, 'memory/2026-11-21.md');
    assert.ok(after.startsWith(`${before}\`\`\`\n\n## Decision: Use pnpm not npm\n`), after);
    assert.equal(after.split('## Decision: Use pnpm not npm').length, 2, 'one copy');
    await memOk(['-C', ws, 'get', 'DECISION-20261121-use-pnpm-not-npm']);
    assert.equal((await memOk(['-C', ws, 'lint'])).stdout, 'lint: 2 entries, 0 problems\n');
  });
});

describe('CRLF files (a Windows editor, git autocrlf)', { concurrency: 2 }, () => {
  const crlf = (text: string) => text.replace(/\n/g, '\r\n');

  test('remember appends CRLF lines to a CRLF daily file, and the lines already there stay as they were', async (t) => {
    const ws = workspace(t, { 'memory/2026-11-17.md': crlf(`# 2026-11-17\n\n${indented}`) });
    await memOk(['-C', ws, '--now', '2026-11-17T10:00', 'remember', 'Use pnpm not npm', '--kind', 'decision']);
    const text = read(ws, 'memory/2026-11-17.md');
    assert.ok(
      text.startsWith(crlf(`# 2026-11-17\n\n${indented}\n## Decision: Use pnpm not npm\n`)),
      JSON.stringify(text),
    );
    assert.equal(text.replace(/\r\n/g, '').includes('\n'), false, 'no LF-only line');
  });

  test('compound leaves a CRLF checkout of its own MEMORY.md alone, and a rewrite keeps CRLF (and a byte order mark)', async (t) => {
    const newer = `## Rule: Deploys happen on Thursdays only\n- id: ${THU}\n- date: 2026-11-18\n- conclusion: Deploys happen on Thursdays only\n- confidence: 0.9\n- origin: user\n- status: active\n`;
    const ws = workspace(t, { 'memory/2026-11-18.md': `# 2026-11-18\n\n${newer}` });
    await memOk(['-C', ws, ...NOW, 'compound']);
    const checkout = `\uFEFF${crlf(read(ws, 'MEMORY.md'))}`;
    writeFileSync(join(ws, 'MEMORY.md'), checkout);
    const again = json((await memOk(['-C', ws, ...NOW, '--json', 'compound'])).stdout);
    assert.equal(again.changed, false);
    assert.equal(read(ws, 'MEMORY.md'), checkout);
    // A new entry makes a rewrite: in the file's own form.
    writeFileSync(
      join(ws, 'memory/2026-11-19.md'),
      `# 2026-11-19\n\n${newer.replaceAll('Thursdays', 'Fridays').replace('20261118', '20261119').replace('2026-11-18', '2026-11-19')}`,
    );
    assert.equal(json((await memOk(['-C', ws, ...NOW, '--json', 'compound'])).stdout).changed, true);
    const rewritten = read(ws, 'MEMORY.md');
    assert.ok(rewritten.startsWith('\uFEFF') && rewritten.includes('Fridays'));
    assert.equal(rewritten.replace(/\r\n/g, '').includes('\n'), false, 'no LF-only line');
  });
});
