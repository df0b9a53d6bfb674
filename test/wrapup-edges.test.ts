/**
 * `mem wrapup` at its edges (docs/consolidation.md): every volume under `limits.summaryLines` so its
 * own status check passes, retracted entries never published, a CRLF checkout not taken for a hand
 * edit, and a file where the summaries folder should be reported in one line. Built CLI, temp dirs.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { editConfig, exampleWorkspace, mem, snapshot, tempDir } from './helpers/cli.js';

const NOW = ['--now', '2026-11-17T03:00'];
const lineCount = (text: string) => text.split('\n').length - 1;
const summaryNames = (ws: string) =>
  readdirSync(join(ws, 'second-brain', 'summaries'))
    .filter((n) => n.endsWith('.md'))
    .sort();

async function initWorkspace(t: { after(fn: () => void): void }): Promise<string> {
  const ws = join(tempDir(t), 'w');
  assert.equal((await mem(['init', ws])).code, 0);
  return ws;
}

function decision(slug: string, title: string): string {
  return `## Decision: ${title}\n- id: DECISION-20261116-${slug}\n- date: 2026-11-16\n- conclusion: ${title.toLowerCase()}\n- origin: user\n- status: active\n`;
}

async function summaryCheck(ws: string, now: string[]): Promise<{ ok: boolean; value: number }> {
  const status = JSON.parse((await mem(['-C', ws, ...now, 'status', '--json'])).stdout);
  return status.governance.checks.find((c: { name: string }) => c.name === 'summaryLines');
}

describe('mem wrapup edges', () => {
  test('default limits: every volume is under 1,500 lines, status agrees, and --fix and a re-run change nothing', async (t) => {
    const ws = await initWorkspace(t);
    mkdirSync(join(ws, 'memory', 'projects'), { recursive: true });
    const rules = Array.from(
      { length: 3100 },
      (_, i) =>
        `## Rule: Rule number ${i}\n- id: RULE-20261116-rule-number-${i}\n- date: 2026-11-16\n- conclusion: c${i}\n- origin: user\n- status: active\n`,
    );
    writeFileSync(join(ws, 'memory', 'projects', 'big.md'), `# Big\n\n${rules.join('\n')}`);
    const r = await mem(['-C', ws, ...NOW, 'wrapup', '--json']);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(summaryNames(ws).length >= 3);
    for (const n of summaryNames(ws))
      assert.ok(lineCount(readFileSync(join(ws, 'second-brain', 'summaries', n), 'utf8')) < 1500, n);
    assert.equal((await summaryCheck(ws, NOW)).ok, true);
    const snap = snapshot(ws, (rel) => rel.startsWith('.mem') || rel.includes('.locks'));
    assert.equal((await mem(['-C', ws, ...NOW, 'status', '--fix'])).code, 0);
    const again = await mem(['-C', ws, ...NOW, 'wrapup', '--date', '2026-11-16', '--json']);
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(JSON.parse(again.stdout).written, []);
    assert.deepEqual(
      snapshot(ws, (rel) => rel.startsWith('.mem') || rel.includes('.locks')),
      snap,
    );
  });

  test('a small limit: every volume is under it (the front matter counted), and a re-run changes nothing', async (t) => {
    const { ws } = exampleWorkspace(t);
    editConfig(ws, (cfg) => (cfg.limits = { summaryLines: 25 }));
    const now = ['--now', '2026-11-22T03:00'];
    const r = await mem(['-C', ws, ...now, 'wrapup', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const files = JSON.parse(r.stdout).files as string[];
    assert.ok(files.length >= 3, files.join(', '));
    for (const f of files)
      assert.ok(
        lineCount(readFileSync(join(ws, f), 'utf8')) < 25,
        `${f}: ${lineCount(readFileSync(join(ws, f), 'utf8'))} lines`,
      );
    assert.equal((await summaryCheck(ws, now)).ok, true);
    const again = await mem(['-C', ws, ...now, 'wrapup', '--json']);
    assert.deepEqual(JSON.parse(again.stdout).written, []);
  });

  test('a retracted entry is not published in a later wrap-up of its day', async (t) => {
    const ws = await initWorkspace(t);
    writeFileSync(
      join(ws, 'memory', '2026-11-16.md'),
      `# 2026-11-16\n\n${decision('keep-postgres', 'Keep Postgres')}\n${decision('drop-the-cache', 'Drop the cache')}`,
    );
    assert.equal((await mem(['-C', ws, ...NOW, 'forget', 'DECISION-20261116-drop-the-cache'])).code, 0);
    const r = await mem(['-C', ws, ...NOW, 'wrapup', '--date', '2026-11-16']);
    assert.equal(r.code, 0, r.stderr);
    const text = readFileSync(join(ws, 'second-brain', 'summaries', '2026-11-16-wrapup.md'), 'utf8');
    assert.match(text, /- Decision: Keep Postgres — /);
    assert.doesNotMatch(text, /Drop the cache|drop-the-cache/);
  });

  test('a CRLF checkout of an untouched wrap-up is neither a hand edit nor rewritten', async (t) => {
    const { ws } = exampleWorkspace(t);
    const args = ['-C', ws, '--now', '2026-11-22T03:00', 'wrapup', '--date', '2026-11-21', '--json'];
    assert.equal((await mem(args)).code, 0);
    const file = join(ws, 'second-brain', 'summaries', '2026-11-21-wrapup.md');
    const crlf = readFileSync(file, 'utf8').replace(/\n/g, '\r\n');
    writeFileSync(file, crlf);
    const r = await mem(args);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { written: string[]; keptEdited: string[] };
    assert.deepEqual([out.written, out.keptEdited], [[], []]);
    assert.doesNotMatch(r.stderr, /edited by hand/);
    assert.deepEqual(summaryNames(ws), ['2026-11-21-wrapup.md']);
    assert.equal(readFileSync(file, 'utf8'), crlf);
  });

  test("a transcript time without an offset is a time in the configured zone: the session is in that day's wrap-up", async (t) => {
    const ws = await initWorkspace(t);
    const dir = join(ws, '..', 'sessions');
    mkdirSync(dir);
    // 23:30 in Shanghai on the 16th; read as UTC it would be 07:30 on the 17th there.
    writeFileSync(
      join(dir, 'late.jsonl'),
      JSON.stringify({
        role: 'user',
        content: 'Late call about the billing export.',
        timestamp: '2026-11-16T23:30:00',
        session_id: 'late-call',
      }) + '\n',
    );
    editConfig(ws, (cfg) => {
      cfg.timezone = 'Asia/Shanghai';
      cfg.sources = [{ name: 'sessions', kind: 'jsonl', path: '../sessions' }];
    });
    const sessionsOf = async (date: string) => {
      const r = await mem(['-C', ws, '--now', '2026-11-18T09:00', '--json', 'wrapup', '--date', date, '--dry-run']);
      assert.equal(r.code, 0, r.stderr);
      return (JSON.parse(r.stdout) as { sessions: string[] }).sessions;
    };
    assert.deepEqual(await sessionsOf('2026-11-16'), ['late-call']);
    assert.deepEqual(await sessionsOf('2026-11-17'), []);
  });

  test('a file where second-brain/summaries should be: one line naming it, exit 1', async (t) => {
    const ws = await initWorkspace(t);
    writeFileSync(join(ws, 'memory', '2026-11-16.md'), `# 2026-11-16\n\n${decision('keep-postgres', 'Keep Postgres')}`);
    rmSync(join(ws, 'second-brain', 'summaries'), { recursive: true, force: true });
    writeFileSync(join(ws, 'second-brain', 'summaries'), 'not a folder\n');
    const r = await mem(['-C', ws, ...NOW, 'wrapup']);
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      'mem: cannot write second-brain/summaries/2026-11-16-wrapup.md: second-brain/summaries is a file, not a folder; nothing was written\n',
    );
    assert.equal(readFileSync(join(ws, 'second-brain', 'summaries'), 'utf8'), 'not a folder\n');
  });
});
