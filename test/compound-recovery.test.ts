/**
 * compound when something goes wrong or was changed by hand: a write that fails part-way never
 * leaves a flip or rewrite unlogged and the error says what was written; `--revert` and a second
 * run in a week never lose a MEMORY.md; a MEMORY.md whose generator marker was deleted by hand is
 * still recognised; `--json`'s `written` names each file once. Built CLI, temp workspaces.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { editConfig, finished, mem, memOk, startMem, tempDir } from './helpers/cli.js';

const NOW = '2026-11-24T04:00';
const TUE = 'RULE-20261116-deploys-happen-on-tuesdays-only';
const WED = 'RULE-20261118-deploys-happen-on-wednesdays';
const LOG = 'memory/archive/weekly-2026-W47.md';
const read = (ws: string, rel: string) => readFileSync(join(ws, rel), 'utf8');

/** w13 of the review: a Tuesday rule by `remember`, a Wednesday rule with the same key by hand. */
async function twoRules(t: { after(fn: () => void): void }): Promise<string> {
  const ws = join(tempDir(t), 'w');
  await memOk(['init', ws]);
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
  writeFileSync(
    join(ws, 'memory/2026-11-18.md'),
    `# 2026-11-18\n\n## Rule: Deploys happen on Wednesdays\n- id: ${WED}\n- date: 2026-11-18\n- key: rule:deploy-day\n- conclusion: Deploys happen on Wednesdays\n- confidence: 0.9\n- origin: user\n- status: active\n`,
  );
  return ws;
}

describe('compound stopped part-way', () => {
  test('the weekly log cannot be written: nothing is written, the error says so, and the rerun logs the flip', async (t) => {
    const ws = await twoRules(t);
    const daily = read(ws, 'memory/2026-11-16.md');
    const memory = read(ws, 'MEMORY.md');
    mkdirSync(join(ws, LOG)); // stands in for a full disk
    const r = await mem(['-C', ws, '--now', NOW, 'compound']);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /^mem: cannot write memory\/archive\/weekly-2026-W47\.md: .*; nothing was written$/m);
    assert.equal(read(ws, 'memory/2026-11-16.md'), daily, 'no flip before the log');
    assert.equal(read(ws, 'MEMORY.md'), memory, 'no rewrite before the log');
    rmdirSync(join(ws, LOG));
    const again = await memOk(['-C', ws, '--now', NOW, 'compound', '--json']);
    assert.equal(JSON.parse(again.stdout).changed, true);
    const log = read(ws, LOG);
    assert.match(
      log,
      new RegExp(`^- superseded: ${TUE} \\(2026-11-16, memory/2026-11-16\\.md\\) → superseded by ${WED}`, 'm'),
    );
    assert.match(log, /^- rewrite: MEMORY\.md rewritten/m);
    assert.match(read(ws, 'memory/2026-11-16.md'), /- status: superseded\n/);
  });

  test('MEMORY.md cannot be written after the flip: the flip is logged, the error names what was written, the rerun finishes', async (t) => {
    const ws = await twoRules(t);
    mkdirSync(join(ws, 'memory/archive/MEMORY-before-2026-W47.md'), { recursive: true });
    const r = await mem(['-C', ws, '--now', NOW, 'compound']);
    assert.equal(r.code, 1, r.stderr);
    assert.match(
      r.stderr,
      /^mem: cannot write memory\/archive\/MEMORY-before-2026-W47\.md: .*; (that|the) file is unchanged\. compound 2026-W47 stopped part-way; already written: memory\/2026-11-16\.md, memory\/archive\/weekly-2026-W47\.md \(the run's plan\); fix that and run `mem compound` again to finish$/m,
    );
    assert.doesNotMatch(r.stderr, /nothing was written/);
    assert.match(read(ws, 'memory/2026-11-16.md'), /- status: superseded\n/);
    let log = read(ws, LOG);
    assert.match(log, new RegExp(`^- superseded: ${TUE} .*→ superseded by ${WED}`, 'm'));
    assert.match(
      log,
      /^- failed: the run stopped part-way \(cannot write memory\/archive\/MEMORY-before-2026-W47\.md: .*\); written before that: memory\/2026-11-16\.md; /m,
    );
    assert.ok(!read(ws, 'MEMORY.md').includes(WED));

    rmdirSync(join(ws, 'memory/archive/MEMORY-before-2026-W47.md'));
    await memOk(['-C', ws, '--now', NOW, 'compound']);
    log = read(ws, LOG);
    assert.equal(log.match(/^## Run /gm)?.length, 2);
    assert.equal(log.match(/^- superseded: /gm)?.length, 1, 'the flip is logged once');
    assert.ok(read(ws, 'MEMORY.md').includes(WED));
    assert.ok(existsSync(join(ws, 'memory/archive/MEMORY-before-2026-W47.md')));
  });
});

describe('compound never loses a MEMORY.md', () => {
  test('a person edits the pinned block while compound is paused before renaming over MEMORY.md: the edit is kept, exit 3, the next run plans on it', async (t) => {
    const ws = await twoRules(t);
    const release = join(ws, '..', 'release');
    const run = startMem(['-C', ws, '--now', NOW, 'compound'], {
      env: {
        MEM_TEST_HOOKS: '1',
        MEM_FAULT: 'pause-before-rename',
        MEM_FAULT_FILE: 'MEMORY.md',
        MEM_FAULT_RELEASE: release,
        MEM_FAULT_MS: '30000',
      },
    });
    const done = finished(run);
    let edited = '';
    run.stderr!.on('data', (d: Buffer) => {
      if (edited || !d.toString().includes('paused before renaming over MEMORY.md')) return;
      edited = read(ws, 'MEMORY.md').replace(
        '<!-- mem:pinned:end -->',
        '- Staging is wiped every Sunday (added by hand)\n<!-- mem:pinned:end -->',
      );
      writeFileSync(join(ws, 'MEMORY.md'), edited);
      writeFileSync(release, '');
    });
    const r = await done;
    assert.equal(r.code, 3, r.stderr);
    assert.ok(edited, 'the pause was reached');
    assert.match(
      r.stderr,
      /MEMORY\.md changed while compound was writing it; it was kept as it is and nothing was written to it/,
    );
    assert.equal(
      r.stderr
        .trim()
        .split('\n')
        .filter((l) => !l.startsWith('mem-fault:')).length,
      1,
      'one line',
    );
    assert.equal(read(ws, 'MEMORY.md'), edited, 'the hand edit is there, byte for byte');
    await memOk(['-C', ws, '--now', NOW, 'compound']);
    const memory = read(ws, 'MEMORY.md');
    assert.ok(
      memory.includes('- Staging is wiped every Sunday (added by hand)\n<!-- mem:pinned:end -->') &&
        memory.includes(WED),
      memory,
    );
  });

  test('--revert keeps the MEMORY.md it replaces, pinned hand edits included', async (t) => {
    const ws = await twoRules(t);
    await memOk(['-C', ws, '--now', NOW, 'compound']);
    const edited = read(ws, 'MEMORY.md').replace(
      '<!-- mem:pinned:end -->',
      '- Staging is wiped every Sunday (added by hand)\n<!-- mem:pinned:end -->',
    );
    writeFileSync(join(ws, 'MEMORY.md'), edited);
    const r = await memOk(['-C', ws, '--now', '2026-11-24T09:30', 'compound', '--revert', '--json']);
    const out = JSON.parse(r.stdout) as { restoredFrom: string; changed: boolean; replacedKeptIn: string };
    assert.equal(out.replacedKeptIn, 'memory/archive/MEMORY-replaced-20261124T093000Z.md');
    assert.ok(!read(ws, 'MEMORY.md').includes('added by hand'));
    const kept = read(ws, out.replacedKeptIn);
    assert.ok(kept.includes(edited.replace(/\n$/, '')), 'the replaced MEMORY.md, byte for byte, inside the fence');
    assert.match(
      read(ws, LOG),
      /^- reverted: MEMORY\.md restored from memory\/archive\/MEMORY-before-2026-W47\.md by `mem compound --revert`; the MEMORY\.md it replaced is kept in memory\/archive\/MEMORY-replaced-20261124T093000Z\.md$/m,
    );
  });

  test('a second rewrite in the week keeps the copy made by the first, so --revert still reaches the MEMORY.md from before the week', async (t) => {
    const ws = await twoRules(t);
    const original = read(ws, 'MEMORY.md');
    await memOk(['-C', ws, '--now', NOW, 'compound']);
    const before = read(ws, 'memory/archive/MEMORY-before-2026-W47.md');
    await memOk(['-C', ws, 'remember', 'Cap uploads at 25 MB', '--now', '2026-11-19T10:00'], { cwd: ws });
    await memOk(['-C', ws, '--now', NOW, 'compound']);
    assert.ok(read(ws, 'MEMORY.md').includes('Cap uploads at 25 MB'), 'the second run rewrote MEMORY.md');
    assert.equal(read(ws, 'memory/archive/MEMORY-before-2026-W47.md'), before);
    assert.match(
      read(ws, LOG),
      /^- rewrite: .*; the one from before this week's first rewrite stays in memory\/archive\/MEMORY-before-2026-W47\.md/m,
    );
    await memOk(['-C', ws, '--now', NOW, 'compound', '--revert']);
    assert.equal(read(ws, 'MEMORY.md'), original);
  });

  test('--revert restores what the last rewrite replaced, also when it was an older week compounded after a newer one', async (t) => {
    const ws = await twoRules(t);
    await memOk(['-C', ws, 'remember', 'Cap uploads at 25 MB', '--now', '2026-11-25T10:00'], { cwd: ws });
    const now = ['--now', '2026-11-30T10:00Z'];
    await memOk(['-C', ws, ...now, 'compound']);
    const fromW48 = read(ws, 'MEMORY.md');
    await memOk(['-C', ws, ...now, 'compound', '--week', '2026-W47']);
    assert.match(
      read(ws, LOG),
      /^- rewrite: .*; the previous one is kept in memory\/archive\/MEMORY-before-2026-W47\.md/m,
    );
    const r = await memOk(['-C', ws, ...now, 'compound', '--revert', '--json']);
    assert.equal(
      (JSON.parse(r.stdout) as { restoredFrom: string }).restoredFrom,
      'memory/archive/MEMORY-before-2026-W47.md',
    );
    assert.equal(read(ws, 'MEMORY.md'), fromW48);
  });
});

describe('a MEMORY.md changed by hand stays within its line limit', () => {
  // Titles with no word in common, so no two become one item.
  const word = (i: number, s: string) =>
    `${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}${s}`;
  const notes = (n: number) =>
    `# 2026-11-17\n` +
    Array.from(
      { length: n },
      (_, i) =>
        `\n## Note: Fact ${word(i, 'x')} ${word(i, 'y')} ${word(i, 'z')}\n- id: NOTE-20261117-fact-number-${i}\n- date: 2026-11-17\n- conclusion: Fact ${word(i, 'x')} ${word(i, 'y')} ${word(i, 'z')}\n- confidence: 0.9\n- origin: user\n- status: active\n`,
    ).join('');
  const lineCount = (text: string) => text.split('\n').length - 1;

  test('its own output with the generator marker line deleted is regenerated, not pinned; a line added outside the markers is kept', async (t) => {
    const ws = join(tempDir(t), 'w');
    await memOk(['init', ws]);
    editConfig(ws, (cfg) => (cfg.limits = { memoryLines: 30 }));
    writeFileSync(join(ws, 'memory/2026-11-17.md'), notes(40));
    await memOk(['-C', ws, '--now', NOW, 'compound']);
    const first = read(ws, 'MEMORY.md');
    assert.equal(lineCount(first), 30);
    writeFileSync(
      join(ws, 'MEMORY.md'),
      first
        .replace(/^<!-- mem:generated .*\n/m, '')
        .replace('## Where to look', '- Ask Maria before touching payments\n\n## Where to look'),
    );
    const r = await memOk(['-C', ws, '--now', NOW, 'compound', '--json']);
    const out = JSON.parse(r.stdout) as { memoryLines: number; items: number; demoted: string[] };
    const memory = read(ws, 'MEMORY.md');
    assert.ok(lineCount(memory) <= 30 && out.memoryLines === lineCount(memory), `${lineCount(memory)} lines`);
    assert.match(memory, /^<!-- mem:generated /m);
    assert.ok(out.items > 10, `${out.items} items`);
    assert.ok(
      memory.includes('<!-- mem:pinned:start -->\n- Ask Maria before touching payments\n<!-- mem:pinned:end -->\n'),
      memory,
    );
    assert.equal(memory.match(/NOTE-20261117-fact-number-/g)!.length, out.items, 'each item once, none of them pinned');
    // The adopted hand line takes room: the items that no longer fit, and only they, are demoted.
    const before = first.match(/^- .*\(\[NOTE-/gm)!.length;
    assert.equal(out.demoted.length, before - out.items);
    const demoted = read(ws, LOG).match(/^- demoted: .*$/gm) ?? [];
    assert.equal(demoted.length, out.demoted.length);
    for (const line of demoted) assert.match(line, /no room within the line limit/);
    assert.match(
      read(ws, LOG),
      /^- kept: MEMORY\.md had lost its generator marker line but is memfold's own output .*: regenerated; 1 line added by hand outside the pinned markers are kept as a pinned section$/m,
    );
  });

  test('pinned text longer than the limit: one-line error, exit 5, nothing rewritten', async (t) => {
    const ws = join(tempDir(t), 'w');
    await memOk(['init', ws]);
    editConfig(ws, (cfg) => (cfg.limits = { memoryLines: 30 }));
    writeFileSync(join(ws, 'memory/2026-11-17.md'), notes(3));
    const long = `# Hand-kept\n\n<!-- mem:pinned:start -->\n${Array.from({ length: 40 }, (_, i) => `- pinned line ${i}`).join('\n')}\n<!-- mem:pinned:end -->\n`;
    writeFileSync(join(ws, 'MEMORY.md'), long);
    const r = await mem(['-C', ws, '--now', NOW, 'compound']);
    assert.equal(r.code, 5, r.stderr);
    assert.equal(
      r.stderr,
      'mem: MEMORY.md: its pinned and hand-written text (44 lines) leaves no room within limits.memoryLines (30): shorten the text between <!-- mem:pinned:start --> and <!-- mem:pinned:end --> (move detail to memory/projects/) and run again; compound changed no status and did not rewrite MEMORY.md\n',
    );
    assert.equal(read(ws, 'MEMORY.md'), long);
    assert.ok(!existsSync(join(ws, LOG)));
  });
});
