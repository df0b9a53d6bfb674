/**
 * compound and supersession (DESIGN §5) beyond the fixture week: an entry compound judges
 * superseded is never promoted, wherever it lives; entries moved into `memory/recent/` by
 * `mem status --fix` are still flipped; a hand-made supersedes cycle is reported, not settled.
 * The built CLI runs as a child process on temp workspaces.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { editConfig, memOk, tempDir } from './helpers/cli.js';

const NOW = '2026-11-24T04:00';
const TUE = 'RULE-20261116-deploys-happen-on-tuesdays-only';
const WED = 'RULE-20261118-deploys-happen-on-wednesdays-only';
const read = (ws: string, rel: string) => readFileSync(join(ws, rel), 'utf8');

async function initWorkspace(t: { after(fn: () => void): void }): Promise<string> {
  const ws = join(tempDir(t), 'w');
  await memOk(['init', ws]);
  return ws;
}

const entry = (kind: string, id: string, date: string, title: string, extra = '') =>
  `## ${kind}: ${title}\n- id: ${id}\n- date: ${date}\n- conclusion: ${title}\n- confidence: 0.9\n- origin: user\n- status: active\n${extra}`;

describe('compound and superseded entries', () => {
  test('an entry moved into memory/recent/ is flipped when a newer one replaces it, and never promoted', async (t) => {
    const ws = await initWorkspace(t);
    editConfig(ws, (cfg) => (cfg.limits = { entriesPerDailyFile: 2 }));
    await memOk(
      [
        '-C',
        ws,
        'remember',
        'Deploys happen on Tuesdays only',
        '--kind',
        'rule',
        '--key',
        'rule:deploy-day',
        '--now',
        '2026-11-16T10:00',
      ],
      { cwd: ws },
    );
    await memOk(['-C', ws, 'remember', 'Every migration needs a rollback script', '--now', '2026-11-16T10:01'], {
      cwd: ws,
    });
    await memOk(['-C', ws, 'remember', 'Cap uploads at 25 MB', '--now', '2026-11-16T10:02'], { cwd: ws });
    await memOk(['-C', ws, 'status', '--fix', '--now', '2026-11-16T11:00']);
    const moved = read(ws, 'memory/recent/2026-11-16-rules.md');
    assert.ok(moved.includes(`- id: ${TUE}`), 'status --fix moved the rule into memory/recent/');
    await memOk(
      [
        '-C',
        ws,
        'remember',
        'Deploys happen on Wednesdays only',
        '--kind',
        'rule',
        '--key',
        'rule:deploy-day',
        '--now',
        '2026-11-18T10:00',
      ],
      { cwd: ws },
    );

    const r = await memOk(['-C', ws, '--now', NOW, 'compound', '--json']);
    const out = JSON.parse(r.stdout) as {
      superseded: Array<{ id: string; file: string; by: string }>;
      promoted: string[];
    };
    assert.deepEqual(
      out.superseded.map((s) => [s.id, s.file, s.by]),
      [[TUE, 'memory/recent/2026-11-16-rules.md', WED]],
    );
    assert.ok(!out.promoted.includes(TUE));
    const memory = read(ws, 'MEMORY.md');
    assert.ok(memory.includes(WED) && !memory.includes(TUE), 'MEMORY.md lists only the current rule');
    // The only change to the split-out: the status line.
    assert.equal(
      read(ws, 'memory/recent/2026-11-16-rules.md'),
      moved.replace(
        /(- id: RULE-20261116-deploys-happen-on-tuesdays-only\n(?:- .*\n|  .*\n)*?- status: )active/,
        '$1superseded',
      ),
    );
    const log = read(ws, 'memory/archive/weekly-2026-W47.md');
    assert.match(
      log,
      new RegExp(
        `^- superseded: ${TUE} \\(2026-11-16, memory/recent/2026-11-16-rules\\.md\\) → superseded by ${WED}`,
        'm',
      ),
    );
    assert.ok(!/^- (blocked|promoted): RULE-20261116-deploys/m.test(log), log);
  });

  test('a superseded entry compound may not flip (outside daily files) is reported as blocked and not promoted', async (t) => {
    const ws = await initWorkspace(t);
    mkdirSync(join(ws, 'memory', 'projects'), { recursive: true });
    writeFileSync(
      join(ws, 'memory/projects/ops.md'),
      `# Ops\n\n${entry('Rule', TUE, '2026-11-16', 'Deploys happen on Tuesdays only', '- key: rule:deploy-day\n')}`,
    );
    writeFileSync(
      join(ws, 'memory/2026-11-18.md'),
      `# 2026-11-18\n\n${entry('Rule', WED, '2026-11-18', 'Deploys happen on Wednesdays only', '- key: rule:deploy-day\n')}`,
    );
    const r = await memOk(['-C', ws, '--now', NOW, 'compound', '--json']);
    const out = JSON.parse(r.stdout) as { promoted: string[] };
    assert.deepEqual(out.promoted, [WED]);
    const memory = read(ws, 'MEMORY.md');
    assert.ok(memory.includes(WED) && !memory.includes(TUE), memory);
    const log = read(ws, 'memory/archive/weekly-2026-W47.md');
    assert.match(
      log,
      new RegExp(`^- blocked: ${TUE} \\(memory/projects/ops\\.md\\) should be superseded by ${WED}`, 'm'),
    );
    assert.match(read(ws, 'memory/projects/ops.md'), /- status: active\n/, 'left as it is');
  });

  test('a hand-made supersedes cycle is reported (output and weekly log) and its statuses are left alone', async (t) => {
    const ws = await initWorkspace(t);
    const A = 'RULE-20261117-retries-back-off-exponentially';
    const B = 'RULE-20261118-retries-use-exponential-backoff';
    writeFileSync(
      join(ws, 'memory/2026-11-17.md'),
      `# 2026-11-17\n\n${entry('Rule', A, '2026-11-17', 'Retries back off exponentially', `- supersedes: ${B}\n`)}`,
    );
    writeFileSync(
      join(ws, 'memory/2026-11-18.md'),
      `# 2026-11-18\n\n${entry('Rule', B, '2026-11-18', 'Retries use exponential backoff', `- supersedes: ${A}\n`)}`,
    );
    const r = await memOk(['-C', ws, '--now', NOW, 'compound', '--json']);
    const out = JSON.parse(r.stdout) as { superseded: unknown[]; cycles: string[][] };
    assert.deepEqual(out.superseded, []);
    assert.deepEqual(out.cycles, [[A, B]]);
    assert.match(r.stderr, new RegExp(`compound 2026-W47: ${A} → ${B} → ${A}: a supersedes cycle`));
    for (const day of ['2026-11-17', '2026-11-18'])
      assert.match(read(ws, `memory/${day}.md`), /- status: active\n/, day);
    const memory = read(ws, 'MEMORY.md');
    assert.ok(memory.includes(A) && memory.includes(B), 'the fact stays in MEMORY.md');
    assert.match(
      read(ws, 'memory/archive/weekly-2026-W47.md'),
      new RegExp(
        `^- cycle: ${A} → ${B} → ${A}: a supersedes cycle, so none of these is current; their statuses are left alone`,
        'm',
      ),
    );
    const human = await memOk(['-C', ws, '--now', NOW, 'compound']);
    assert.match(human.stdout, /nothing changed; .*1 supersedes cycles left alone/);
  });

  test('--json written names a daily file once however many entries in it were flipped', async (t) => {
    const ws = await initWorkspace(t);
    writeFileSync(
      join(ws, 'memory/2026-11-16.md'),
      `# 2026-11-16\n\n${entry('Rule', TUE, '2026-11-16', 'Deploys happen on Tuesdays only', '- key: rule:deploy-day\n')}\n${entry('Decision', 'DECISION-20261116-use-mysql', '2026-11-16', 'Use MySQL for orders', '- key: decision:shop:orders-db\n')}`,
    );
    writeFileSync(
      join(ws, 'memory/2026-11-18.md'),
      `# 2026-11-18\n\n${entry('Rule', WED, '2026-11-18', 'Deploys happen on Wednesdays only', '- key: rule:deploy-day\n')}\n${entry('Decision', 'DECISION-20261118-use-postgresql', '2026-11-18', 'Use PostgreSQL for orders', '- key: decision:shop:orders-db\n')}`,
    );
    const r = await memOk(['-C', ws, '--now', NOW, 'compound', '--json']);
    const out = JSON.parse(r.stdout) as { superseded: unknown[]; written: string[] };
    assert.equal(out.superseded.length, 2);
    assert.deepEqual(
      out.written.filter((f) => f === 'memory/2026-11-16.md'),
      ['memory/2026-11-16.md'],
    );
    assert.equal(new Set(out.written).size, out.written.length, out.written.join(', '));
    assert.match(r.stderr + (await memOk(['-C', ws, '--now', NOW, 'compound'])).stdout, /nothing changed/);
  });
});
