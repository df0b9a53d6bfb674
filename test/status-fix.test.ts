/**
 * `mem status --fix` never loses or rewrites text (docs/operations.md, DESIGN §2: "entries moved,
 * never changed"): a summary split never overwrites an existing file, entries without an id are
 * matched by their whole text, and a wrap-up memfold wrote is left for wrapup to re-cut.
 * Real CLI runs on temp workspaces.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { editConfig, exampleWorkspace, mem, snapshot, tempDir } from './helpers/cli.js';

const SUMMARIES = ['second-brain', 'summaries'];
const LINK = /\nContinued in \[([^\]]+)\]\(\1\)\n$/;

/** A summary rebuilt by following "Continued in" links from `name`, the links taken out. */
function followChain(dir: string, name: string): string {
  let out = '';
  for (let next: string | undefined = name; next;) {
    const text = readFileSync(join(dir, next), 'utf8');
    const m = LINK.exec(text);
    out += m ? text.slice(0, m.index) : text;
    next = m?.[1];
  }
  return out;
}

const lineCount = (text: string) => text.split('\n').length - 1;

function note(n: number): string {
  return `## Note: Hand note ${n}\n- conclusion: hand-written conclusion number ${n}\n`;
}

describe('mem status --fix', () => {
  test('a split never overwrites an existing volume: every file keeps its text, in order, under the limit', async (t) => {
    const { ws } = exampleWorkspace(t);
    editConfig(ws, (cfg) => (cfg.limits = { summaryLines: 25 }));
    const dir = join(ws, ...SUMMARIES);
    // A summary and a second volume of it, both hand-kept (no wrapup front matter) and both too long.
    const first =
      Array.from({ length: 40 }, (_, i) => (i % 8 === 0 ? `## Part ${i / 8}` : `first line ${i}`)).join('\n') + '\n';
    const second = `---\ntitle: kept by hand\n---\n${Array.from({ length: 30 }, (_, i) => `- second bullet ${i}`).join('\n')}\n`;
    writeFileSync(join(dir, '2026-11-21-wrapup.md'), first);
    writeFileSync(join(dir, '2026-11-21-wrapup-vol2.md'), second);
    const r = await mem(['-C', ws, '--now', '2026-11-22T03:00', 'status', '--fix', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const fixed = JSON.parse(r.stdout).fixed as { summaryVolumes: Array<{ summary: string; volumes: string[] }> };
    const created = fixed.summaryVolumes.flatMap((s) => s.volumes);
    assert.equal(new Set(created).size, created.length, 'no name used twice');
    assert.ok(
      !created.includes('second-brain/summaries/2026-11-21-wrapup-vol2.md'),
      'the existing vol2 is not a new volume',
    );
    assert.equal(followChain(dir, '2026-11-21-wrapup.md'), first, 'the first summary, byte for byte');
    assert.equal(followChain(dir, '2026-11-21-wrapup-vol2.md'), second, 'the existing vol2, front matter and all');
    for (const name of readdirSync(dir).filter((n) => n.endsWith('.md')))
      assert.ok(lineCount(readFileSync(join(dir, name), 'utf8')) < 25, `${name} under the limit`);
    const status = JSON.parse((await mem(['-C', ws, '--now', '2026-11-22T03:00', 'status', '--json'])).stdout);
    assert.equal(status.governance.checks.find((c: { name: string }) => c.name === 'summaryLines').ok, true);
    const snap = snapshot(ws);
    assert.equal((await mem(['-C', ws, '--now', '2026-11-22T03:00', 'status', '--fix'])).code, 0);
    assert.deepEqual(snapshot(ws), snap, 'a second --fix changes nothing');
  });

  test('a split stopped before the summary shrank is taken up where it stopped: no volume written twice', async (t) => {
    const long =
      Array.from({ length: 60 }, (_, i) => (i % 10 === 0 ? `## Part ${i / 10}` : `line ${i}`)).join('\n') + '\n';
    const split = async (ws: string) => {
      editConfig(ws, (cfg) => (cfg.limits = { summaryLines: 25 }));
      writeFileSync(join(ws, ...SUMMARIES, '2026-11-21-notes.md'), long);
      const r = await mem(['-C', ws, '--now', '2026-11-22T03:00', 'status', '--fix', '--json']);
      assert.equal(r.code, 0, r.stderr);
    };
    // What one whole run writes...
    const whole = exampleWorkspace(t);
    await split(whole.ws);
    const volumes = readdirSync(join(whole.ws, ...SUMMARIES))
      .filter((n) => n.startsWith('2026-11-21-notes-vol'))
      .sort();
    assert.ok(volumes.length >= 2);
    // ...and a run killed after writing its last volume, before the others and the shrink.
    const stopped = exampleWorkspace(t);
    mkdirSync(join(stopped.ws, ...SUMMARIES), { recursive: true });
    const last = volumes[volumes.length - 1]!;
    writeFileSync(join(stopped.ws, ...SUMMARIES, last), readFileSync(join(whole.ws, ...SUMMARIES, last), 'utf8'));
    await split(stopped.ws);
    assert.deepEqual(snapshot(stopped.ws), snapshot(whole.ws), 'the same files with the same text as one whole run');
  });

  test('entries without an id are moved by their whole text: a second --fix loses none', async (t) => {
    const ws = join(tempDir(t), 'w');
    assert.equal((await mem(['init', ws])).code, 0);
    editConfig(ws, (cfg) => (cfg.limits = { entriesPerDailyFile: 2 }));
    const daily = join(ws, 'memory', '2026-11-16.md');
    writeFileSync(daily, `# 2026-11-16\n\n${[1, 2, 3].map(note).join('\n')}`);
    const now = ['--now', '2026-11-17T03:00'];
    assert.equal((await mem(['-C', ws, ...now, 'status', '--fix'])).code, 0);
    writeFileSync(daily, readFileSync(daily, 'utf8') + '\n' + [4, 5, 6].map(note).join('\n'));
    const r = await mem(['-C', ws, ...now, 'status', '--fix']);
    assert.equal(r.code, 0, r.stderr);
    const all = [...snapshot(join(ws, 'memory'))].map(([, text]) => text).join('\n');
    for (const n of [1, 2, 3, 4, 5, 6]) {
      assert.equal(all.split(note(n)).length - 1, 1, `hand note ${n} exactly once under memory/`);
    }
    assert.doesNotMatch(readFileSync(daily, 'utf8'), /## Note:/, 'all moved out of the daily file');
  });

  test('an id-less entry already in the split-out stays in the daily file unless its whole text is there', async (t) => {
    const ws = join(tempDir(t), 'w');
    assert.equal((await mem(['init', ws])).code, 0);
    editConfig(ws, (cfg) => (cfg.limits = { entriesPerDailyFile: 2 }));
    mkdirSync(join(ws, 'memory', 'recent'), { recursive: true });
    // The split-out already holds note 1 (a crash between writing it and shrinking the daily file).
    writeFileSync(join(ws, 'memory', 'recent', '2026-11-16-notes.md'), `# 2026-11-16-notes\n\n${note(1)}`);
    writeFileSync(join(ws, 'memory', '2026-11-16.md'), `# 2026-11-16\n\n${[1, 2, 3].map(note).join('\n')}`);
    assert.equal((await mem(['-C', ws, 'status', '--fix'])).code, 0);
    const all = [...snapshot(join(ws, 'memory'))].map(([, text]) => text).join('\n');
    for (const n of [1, 2, 3]) assert.equal(all.split(note(n)).length - 1, 1, `hand note ${n} exactly once`);
  });

  test('a wrap-up memfold wrote is left whole (wrapup re-cuts it); re-running wrapup then writes no -v2', async (t) => {
    const { ws } = exampleWorkspace(t);
    const now = ['--now', '2026-11-22T03:00'];
    assert.equal((await mem(['-C', ws, ...now, 'wrapup'])).code, 0);
    const dir = join(ws, ...SUMMARIES);
    assert.deepEqual(
      readdirSync(dir).filter((n) => n.endsWith('.md')),
      ['2026-11-21-wrapup.md'],
    );
    editConfig(ws, (cfg) => (cfg.limits = { summaryLines: 25 }));
    const before = snapshot(dir);
    const r = await mem(['-C', ws, ...now, 'status', '--fix']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /fix: left second-brain\/summaries\/2026-11-21-wrapup\.md whole: written by mem wrapup; "mem wrapup --date 2026-11-21" re-cuts it/,
    );
    assert.deepEqual(snapshot(dir), before, 'nothing split');
    const again = await mem(['-C', ws, ...now, 'wrapup', '--date', '2026-11-21', '--json']);
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(JSON.parse(again.stdout).keptEdited, []);
    const names = readdirSync(dir)
      .filter((n) => n.endsWith('.md'))
      .sort();
    assert.ok(
      names.every((n) => !n.includes('-v2')),
      names.join(', '),
    );
    for (const n of names) assert.ok(lineCount(readFileSync(join(dir, n), 'utf8')) < 25, `${n} under the limit`);
    const status = JSON.parse((await mem(['-C', ws, ...now, 'status', '--json'])).stdout);
    assert.equal(status.governance.checks.find((c: { name: string }) => c.name === 'summaryLines').ok, true);
  });
});
