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
  for (let next: string | undefined = name; next; ) {
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

});
