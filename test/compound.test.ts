/**
 * `mem compound` end to end: the fixture week lived day by day (microsync each evening, wrapup each
 * night), then the weekly rewrite; idempotency, dry run, pinned sections, revert, keys and
 * look-alikes, and the line limit. The built CLI runs as a child process on temp copies.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { editConfig, mem, snapshot } from './helpers/cli.js';
import {
  bullets,
  CITED,
  DAYS,
  h2,
  liveDay,
  markdownFiles,
  NEVER,
  SECTIONS,
  weekWorkspace,
} from './helpers/week-fixture.js';

const NOW = '2026-11-23T06:00';
const OLD = 'DECISION-20261116-use-redis-for-the-session-cache';
const NEW = 'DECISION-20261118-go-back-to-in-memory-sessions-instead-of-redis-for-the';
const read = (ws: string, rel: string) => readFileSync(join(ws, rel), 'utf8');
const lines = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
const NOTES = [
  'Invoices go out on the first',
  'Warehouse B closes at six',
  'Support rota changes monthly',
  'Maria reviews payment code',
  'Staging uses fake cards',
  'Logs stay thirty days',
  'Couriers pick up at noon',
  'Returns need a photo',
];
const HAND =
  '# Shop agent memory (hand-written)\n\n- The shop repo lives in /home/dev/shop; ask before force-pushing.\n- Maria owns the payments integration.\n';

async function livedWeek(t: { after(fn: () => void): void }) {
  const week = weekWorkspace(t);
  for (const day of DAYS) {
    week.release(day);
    const r = await liveDay(week.ws, day);
    assert.equal(r.microsync.code, 0, r.microsync.stderr);
    assert.equal(r.wrapup.code, 0, r.wrapup.stderr);
  }
  return week;
}

/** Lines that differ between two texts of the same length in lines. */
function changedLines(a: string, b: string): string[] {
  const [x, y] = [a.split('\n'), b.split('\n')];
  assert.equal(x.length, y.length);
  return y.filter((l, i) => l !== x[i]);
}

describe('mem compound', () => {
  test('the fixture week: six-section wrap-ups, MEMORY.md with the reversed decision in its new form only, flips logged, no chit-chat', async (t) => {
    const { ws } = await livedWeek(t);
    for (const day of DAYS) {
      const text = read(ws, `second-brain/summaries/${day}-wrapup.md`);
      assert.deepEqual(h2(text), SECTIONS, day);
      for (const b of bullets(text)) assert.match(b, CITED, `${day}: ${b}`);
    }
    // Said again on 11-19 in the OpenClaw main agent's session, which is global (issue 27): a rule of its own, broader than the shop's.
    assert.match(
      read(ws, 'second-brain/summaries/2026-11-19-wrapup.md'),
      /- Rule: Every PR needs at least one reviewer — \[RULE-20261119-every-pr-needs-at-least-one-reviewer\]/,
    );
    const dailyBefore = new Map(DAYS.map((d) => [d, read(ws, `memory/${d}.md`)]));

    const r = await mem(['-C', ws, 'compound', '--now', NOW, '--json']);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as {
      week: string;
      superseded: Array<{ id: string; by: string }>;
      adoptedHandWritten: boolean;
      memoryLines: number;
      changed: boolean;
    };
    assert.equal(out.week, '2026-W47');
    assert.deepEqual(
      out.superseded.map((s) => [s.id, s.by]),
      [[OLD, NEW]],
    );
    assert.equal(out.adoptedHandWritten, true);

    const memory = read(ws, 'MEMORY.md');
    assert.ok(lines(memory) <= 200 && lines(memory) === out.memoryLines, `${lines(memory)} lines`);
    assert.ok(
      memory.includes(
        `[${NEW}](memory/2026-11-18.md#decision-go-back-to-in-memory-sessions-instead-of-redis-for-the-session-cache)`,
      ),
    );
    assert.ok(
      !memory.includes(OLD) && !memory.includes('Use Redis for the session cache'),
      'the reversed decision appears only in its new form',
    );
    assert.equal(memory.match(/Every PR needs at least one reviewer/g)?.length, 1, 'a rule stated twice is one item');
    assert.match(
      memory,
      /## Core rules\n(- .*\n)*- Every PR needs at least one reviewer \(\[RULE-2026111[69]-every-pr-needs-at-least-one-reviewer\]/,
    );
    assert.match(
      memory,
      /## Notes\n(- .*\n)*- The staging server restarts every night at 02:00 UTC \(\[NOTE-20261119-/,
    );
    assert.match(
      memory,
      /- 所有接口都返回 UTF-8 编码的 JSON \(\[DECISION-20261117-所有接口都返回-utf-8-编码的-json\]/u,
    );
    assert.ok(
      memory.includes(`<!-- mem:pinned:start -->\n${HAND}<!-- mem:pinned:end -->\n`),
      'the hand-written MEMORY.md is kept whole as a pinned section',
    );

    // The only change to daily files: the old decision's status line.
    for (const day of DAYS) {
      const changed = changedLines(dailyBefore.get(day)!, read(ws, `memory/${day}.md`));
      assert.deepEqual(changed, day === '2026-11-16' ? ['- status: superseded'] : [], day);
    }
    const log = read(ws, 'memory/archive/weekly-2026-W47.md');
    assert.match(log, /^# Weekly log 2026-W47\n/);
    assert.match(
      log,
      new RegExp(
        `^- superseded: ${OLD} \\(2026-11-16, memory/2026-11-16\\.md\\) → superseded by ${NEW}: explicit supersedes`,
        'm',
      ),
    );
    assert.match(log, /^- adopted: MEMORY\.md had no generator marker .* \(4 lines\) is kept as a pinned section$/m);
    assert.match(
      log,
      /^- promoted: RULE-20261116-every-pr-needs-at-least-one-reviewer \(2026-11-16\): score [\d.]+ = kind 2 \+ confidence 1\.8 /m,
    );
    assert.match(log, /^- rewrite: MEMORY\.md rewritten .*memory\/archive\/MEMORY-before-2026-W47\.md/m);

    for (const [file, text] of markdownFiles(ws))
      for (const word of NEVER) assert.ok(!text.includes(word), `${file} must not contain "${word}"`);
  });

  test('compound twice in a row: the second run changes nothing; --revert restores the previous MEMORY.md', async (t) => {
    const { ws } = weekWorkspace(t, '2026-11-20');
    assert.equal((await mem(['-C', ws, 'compound', '--now', NOW])).code, 0);
    const dirty = async () => JSON.parse((await mem(['-C', ws, 'status', '--json', '--now', NOW])).stdout).index.dirty;
    assert.deepEqual(await dirty(), [], 'compound brings the search index up to date with what it wrote');
    const after = snapshot(ws);
    const second = await mem(['-C', ws, 'compound', '--now', NOW, '--json']);
    assert.equal(second.code, 0, second.stderr);
    assert.equal(JSON.parse(second.stdout).changed, false);
    assert.deepEqual(snapshot(ws), after);

    const revert = await mem(['-C', ws, 'compound', '--revert', '--now', NOW]);
    assert.equal(revert.code, 0, revert.stderr);
    assert.equal(
      revert.stdout,
      'compound --revert: MEMORY.md restored from memory/archive/MEMORY-before-2026-W47.md; the one it replaced is kept in memory/archive/MEMORY-replaced-20261123T050000Z.md\n',
    );
    assert.equal(read(ws, 'MEMORY.md'), HAND);
    assert.match(
      read(ws, 'memory/archive/weekly-2026-W47.md'),
      /- reverted: MEMORY\.md restored from memory\/archive\/MEMORY-before-2026-W47\.md/,
    );
    assert.deepEqual(await dirty(), [], 'and so does --revert');
  });

  test('--dry-run prints the new MEMORY.md as a diff and writes nothing', async (t) => {
    const { ws } = weekWorkspace(t, '2026-11-20');
    assert.equal((await mem(['-C', ws, 'microsync', '--since', 'all', '--now', NOW])).code, 0);
    const before = snapshot(ws, (rel) => rel.includes('.locks'));
    const r = await mem(['-C', ws, 'compound', '--now', NOW, '--dry-run']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      new RegExp(`^would mark ${OLD} superseded in memory/2026-11-16\\.md \\(by ${NEW}: explicit supersedes`),
    );
    assert.match(r.stdout, /\n--- MEMORY\.md\n\+\+\+ MEMORY\.md \(compound 2026-W47\)\n\+# MEMORY\n/);
    assert.match(r.stdout, /\n # Shop agent memory \(hand-written\)\n/, 'unchanged lines are context');
    assert.match(r.stdout, /\n\+- Every PR needs at least one reviewer \(\[RULE-/);
    assert.match(r.stdout, /compound 2026-W47: dry run, nothing written/);
    assert.deepEqual(
      snapshot(ws, (rel) => rel.includes('.locks')),
      before,
    );
  });

  test('a hand-edited pinned section survives compound verbatim', async (t) => {
    const { ws } = weekWorkspace(t, '2026-11-20');
    assert.equal((await mem(['-C', ws, 'compound', '--now', NOW])).code, 0);
    const pinned =
      '<!-- mem:pinned:start -->\n## Deploy checklist   \n1. run `make smoke`\n\n* never on Fridays *\n<!-- mem:pinned:end -->\n';
    const generated = read(ws, 'MEMORY.md');
    // A person edits the pinned block and also scribbles outside it (generated text: not kept).
    writeFileSync(
      join(ws, 'MEMORY.md'),
      generated
        .replace(/<!-- mem:pinned:start -->[\s\S]*?<!-- mem:pinned:end -->\n/, pinned)
        .replace('## Core rules\n', '## Core rules\n- scribbled outside the pinned markers\n'),
    );
    const r = await mem(['-C', ws, 'compound', '--now', NOW]);
    assert.equal(r.code, 0, r.stderr);
    const memory = read(ws, 'MEMORY.md');
    assert.ok(memory.includes(pinned), 'pinned text byte for byte');
    assert.ok(!memory.includes('scribbled'), 'generated sections are rewritten, not appended to');
    assert.match(memory, /## Core rules\n- Error pages must never show stack traces/);
  });

  test('same key: the newest wins and the other is flipped; look-alikes are only suspected; the line limit holds', async (t) => {
    const { ws } = weekWorkspace(t);
    editConfig(ws, (cfg) => (cfg.limits = { memoryLines: 22 }));
    const entry = (kind: string, id: string, date: string, title: string, extra = '') =>
      `## ${kind}: ${title}\n- id: ${id}\n- date: ${date}\n- conclusion: ${title}\n- confidence: 0.9\n- origin: manual\n- status: active\n${extra}`;
    writeFileSync(
      join(ws, 'memory', '2026-11-17.md'),
      `# 2026-11-17\n\n${entry('Decision', 'DECISION-20261117-use-mysql', '2026-11-17', 'Use MySQL for orders', '- key: decision:shop:orders-db\n')}\n${entry('Rule', 'RULE-20261117-tag-every-release-in-git', '2026-11-17', 'Tag every release in git with the version')}\n` +
        NOTES.map((title, i) => `\n${entry('Note', `NOTE-20261117-fact-${i}`, '2026-11-17', title)}`).join(''),
    );
    writeFileSync(
      join(ws, 'memory', '2026-11-19.md'),
      `# 2026-11-19\n\n${entry('Decision', 'DECISION-20261119-use-postgresql', '2026-11-19', 'Use PostgreSQL for orders', '- key: decision:shop:orders-db\n')}\n${entry('Rule', 'RULE-20261119-tag-every-release-in-git-with-its-version', '2026-11-19', 'Tag every release in git with its version')}`,
    );
    const r = await mem(['-C', ws, 'compound', '--now', NOW, '--no-llm', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as {
      superseded: Array<{ id: string; by: string; reason: string }>;
      suspected: Array<{ a: string; b: string }>;
    };
    assert.deepEqual(out.superseded, [
      {
        id: 'DECISION-20261117-use-mysql',
        file: 'memory/2026-11-17.md',
        by: 'DECISION-20261119-use-postgresql',
        reason: 'same key decision:shop:orders-db, newer entry wins',
      },
    ]);
    assert.deepEqual(
      out.suspected.map((s) => [s.a, s.b]),
      [['RULE-20261117-tag-every-release-in-git', 'RULE-20261119-tag-every-release-in-git-with-its-version']],
    );
    assert.match(
      read(ws, 'memory/2026-11-17.md'),
      /- id: DECISION-20261117-use-mysql\n- date: 2026-11-17\n- conclusion: Use MySQL for orders\n- confidence: 0\.9\n- origin: manual\n- status: superseded\n/,
    );
    assert.match(
      read(ws, 'memory/2026-11-17.md'),
      /- id: RULE-20261117-tag-every-release-in-git\n(- .*\n){4}- status: active\n/,
      'a look-alike is never flipped',
    );
    const log = read(ws, 'memory/archive/weekly-2026-W47.md');
    assert.match(
      log,
      /^- suspected: RULE-20261117-tag-every-release-in-git ~ RULE-20261119-tag-every-release-in-git-with-its-version \(similarity 0\.\d\d\): look alike, not flipped/m,
    );
    assert.match(
      log,
      /^- over-budget: NOTE-20261117-fact-\d \(2026-11-17, score [\d.]+\): not promoted, MEMORY\.md would exceed 22 lines$/m,
    );
    assert.deepEqual(JSON.parse(read(ws, '.mem/suspected-conflicts.json')).suspected.length, 1);
    const memory = read(ws, 'MEMORY.md');
    assert.ok(lines(memory) <= 22, `${lines(memory)} lines`);
    assert.ok(memory.includes('Use PostgreSQL for orders') && !memory.includes('MySQL'));
    assert.ok(
      memory.includes(
        '(memory/2026-11-19.md#rule-tag-every-release-in-git-with-its-version), RULE-20261117-tag-every-release-in-git)',
      ),
      'near-identical entries are one item citing both ids',
    );
  });
});
