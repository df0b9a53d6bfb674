/**
 * Locks between the consolidation jobs and microsync, with real processes: wrapup and compound never
 * run together (one waits or exits 3), files stay whole, a microsync append made while compound
 * holds its locks survives compound's status flip in the same daily file, and a `forget --hard`
 * waits for a running compound instead of having the entry written back by it.
 */
import assert from 'node:assert/strict';
import { appendFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { editConfig, finished, mem, startMem, type RunResult } from './helpers/cli.js';
import { h2, SECTIONS, weekWorkspace } from './helpers/week-fixture.js';

const NOW = '2026-11-23T06:00';
const read = (ws: string, rel: string) => readFileSync(join(ws, rel), 'utf8');

function stderrSays(child: ReturnType<typeof startMem>, pattern: RegExp): Promise<void> {
  return new Promise((resolve) => {
    let buf = '';
    child.stderr?.on('data', (d: Buffer | string) => {
      buf += String(d);
      if (pattern.test(buf)) resolve();
    });
  });
}

function assertWhole(ws: string, summary = true): void {
  const memory = read(ws, 'MEMORY.md');
  assert.match(memory, /^# MEMORY\n[\s\S]*\n## Where to look\n(- .*\n)+$/);
  if (summary) assert.deepEqual(h2(read(ws, 'second-brain/summaries/2026-11-20-wrapup.md')), SECTIONS);
  for (const dir of ['.', 'memory', 'memory/archive', 'second-brain/summaries']) {
    assert.deepEqual(
      readdirSync(join(ws, dir)).filter((n) => n.includes('.mem-tmp-')),
      [],
      `no temp files in ${dir}`,
    );
  }
}

describe('consolidation locks', () => {
  test('wrapup and compound started together: each finishes or exits 3, never both at once, files whole', async (t) => {
    const { ws } = weekWorkspace(t, '2026-11-20');
    editConfig(ws, (cfg) => (cfg.limits = { lockWaitMs: 0 }));
    const [a, b] = await Promise.all([
      finished(startMem(['-C', ws, 'compound', '--now', NOW])),
      finished(startMem(['-C', ws, 'wrapup', '--date', '2026-11-20', '--now', NOW])),
    ]);
    for (const r of [a, b]) {
      assert.ok(
        r.code === 0 ||
          (r.code === 3 && /another consolidation job \(wrapup, compound or forget --hard\) is running/.test(r.stderr)),
        `${r.code}: ${r.stderr}`,
      );
    }
    assert.ok(a.code === 0 || b.code === 0, 'one of them ran');
    // Whichever lost runs cleanly afterwards.
    if (a.code === 3) assert.equal((await mem(['-C', ws, 'compound', '--now', NOW])).code, 0);
    if (b.code === 3) assert.equal((await mem(['-C', ws, 'wrapup', '--date', '2026-11-20', '--now', NOW])).code, 0);
    assertWhole(ws);
  });

  test('a wrapup that meets a running compound waits for it, or exits 3 once limits.lockWaitMs is over', async (t) => {
    const { ws } = weekWorkspace(t, '2026-11-20');
    editConfig(ws, (cfg) => (cfg.limits = { lockWaitMs: 300 }));
    const releaseFile = join(ws, '.mem', 'release-compound');
    const compound = startMem(['-C', ws, 'compound', '--now', NOW], {
      env: {
        MEM_TEST_HOOKS: '1',
        MEM_FAULT: 'consolidation-pause',
        MEM_FAULT_MS: '30000',
        MEM_FAULT_RELEASE: releaseFile,
      },
    });
    const done = finished(compound);
    await stderrSays(compound, /mem-fault: compound paused/);
    const busy = await mem(['-C', ws, 'wrapup', '--date', '2026-11-20', '--now', NOW]);
    assert.equal(busy.code, 3, busy.stderr);
    assert.match(
      busy.stderr,
      /^mem: wrapup: another consolidation job \(wrapup, compound or forget --hard\) is running — another "consolidation" run holds memory\/\.locks\/consolidation\.lock; waited 0s/,
    );
    editConfig(ws, (cfg) => (cfg.limits = { lockWaitMs: 20_000 }));
    const waiter = startMem(['-C', ws, 'wrapup', '--date', '2026-11-20', '--now', NOW]);
    const waiting = finished(waiter);
    await new Promise((r) => setTimeout(r, 1000));
    writeFileSync(releaseFile, '');
    const w = await waiting;
    assert.equal(w.code, 0, w.stderr);
    const c = await done;
    assert.equal(c.code, 0, c.stderr);
    assertWhole(ws);
  });

  test('a microsync append during compound survives the status flip in the same daily file', async (t) => {
    const { root, ws } = weekWorkspace(t, '2026-11-20');
    const releaseFile = join(ws, '.mem', 'release-compound');
    const compound = startMem(['-C', ws, 'compound', '--now', NOW], {
      env: {
        MEM_TEST_HOOKS: '1',
        MEM_FAULT: 'consolidation-pause',
        MEM_FAULT_MS: '30000',
        MEM_FAULT_RELEASE: releaseFile,
      },
    });
    const done = finished(compound);
    await stderrSays(compound, /mem-fault: compound paused/);
    // A late session of Monday evening, read while compound holds its locks.
    const late = {
      role: 'user',
      content: 'From now on, hotfix branches are deleted after merge.',
      timestamp: '2026-11-16T21:40:00Z',
      session_id: 'late-2026-11-16',
    };
    appendFileSync(join(root, 'transcripts', 'jsonl', 'late-2026-11-16.jsonl'), JSON.stringify(late) + '\n');
    const ms: RunResult = await mem(['-C', ws, 'microsync', '--since', 'all', '--now', NOW]);
    assert.equal(ms.code, 0, ms.stderr);
    assert.match(read(ws, 'memory/2026-11-16.md'), /## Rule: Hotfix branches are deleted after merge\n/);
    writeFileSync(releaseFile, '');
    const c = await done;
    assert.equal(c.code, 0, c.stderr);
    const day = read(ws, 'memory/2026-11-16.md');
    assert.match(day, /- id: DECISION-20261116-use-redis-for-the-session-cache\n(?:.*\n)*?- status: superseded\n/);
    assert.match(
      day,
      /## Rule: Hotfix branches are deleted after merge\n(?:.*\n)*?- status: active\n/,
      'the append made during compound is still there',
    );
    assertWhole(ws, false);
  });

  test('forget --hard during a compound that planned with the entry waits for it (or exits 3): the entry does not come back', async (t) => {
    const { ws } = weekWorkspace(t, '2026-11-20');
    const id = 'RULE-20261120-error-pages-must-never-show-stack-traces';
    assert.equal((await mem(['-C', ws, 'microsync', '--since', 'all', '--now', NOW])).code, 0);
    editConfig(ws, (cfg) => (cfg.limits = { lockWaitMs: 0 }));
    const releaseFile = join(ws, '.mem', 'release-compound');
    const compound = startMem(['-C', ws, 'compound', '--now', NOW], {
      env: {
        MEM_TEST_HOOKS: '1',
        MEM_FAULT: 'consolidation-pause',
        MEM_FAULT_MS: '30000',
        MEM_FAULT_RELEASE: releaseFile,
      },
    });
    const done = finished(compound);
    await stderrSays(compound, /mem-fault: compound paused/);
    const busy = await mem(['-C', ws, 'forget', id, '--hard', '--yes', '--now', NOW]);
    assert.equal(busy.code, 3, busy.stderr);
    assert.match(
      busy.stderr,
      /^mem: forget: another consolidation job \(wrapup, compound or forget --hard\) is running/,
    );
    assert.match(read(ws, 'memory/2026-11-20.md'), new RegExp(`- id: ${id}\n`), 'nothing was removed');
    editConfig(ws, (cfg) => (cfg.limits = { lockWaitMs: 20_000 }));
    const forget = finished(startMem(['-C', ws, 'forget', id, '--hard', '--yes', '--now', NOW]));
    writeFileSync(releaseFile, '');
    assert.equal((await done).code, 0);
    const f = await forget;
    assert.equal(f.code, 0, f.stderr);
    for (const rel of ['MEMORY.md', 'memory/2026-11-20.md', 'memory/archive/weekly-2026-W47.md'])
      assert.doesNotMatch(read(ws, rel), new RegExp(id), rel);
  });
});
