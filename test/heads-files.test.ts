/**
 * memory/'s listing and stamp (src/entries/heads-files.ts, heads-hash.ts), which every read checks the
 * heads, the id index, the ready packs and status's summary against: the fast listing gives exactly
 * the files and stats the walk of workspace/markdown-files.ts gives (hidden names, folders, links in
 * and out of the workspace, a FIFO, a dangling link), and the stamp changes with every edit a person
 * can make without the size changing: an edit in place, a file replaced by a rename, an edit whose
 * mtime is set back (same second, or `touch -r`), which only the ctime tells.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, renameSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { setLinkWarning } from '../src/core/outside-link.js';
import { filesDigestOf, memoryFilesDigest, statedMemoryFiles } from '../src/entries/heads-files.js';
import { Stamp, stampOfTexts } from '../src/entries/heads-hash.js';
import { statedMarkdownFiles } from '../src/workspace/markdown-files.js';
import { tempDir } from './helpers/cli.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('the fast listing of memory/ is the walk of markdown-files.ts, file for file and stat for stat', (t) => {
  const ws = tempDir(t);
  const outside = tempDir(t);
  const mem = join(ws, 'memory');
  mkdirSync(join(mem, 'b', 'deeper'), { recursive: true });
  mkdirSync(join(mem, '.locks'), { recursive: true });
  mkdirSync(join(mem, 'a.md.d'), { recursive: true });
  for (const f of [
    '2026-01-02.md',
    '2026-01-01.md',
    'b/2026-01-03.md',
    'b/deeper/x.md',
    'a.md.d/y.md',
    'notes.txt',
    '.hidden.md',
    '.locks/z.md',
    'b.md',
  ])
    writeFileSync(join(mem, f), `# ${f}\n`);
  writeFileSync(join(outside, 'secret.md'), 'outside\n');
  symlinkSync(join(mem, '2026-01-01.md'), join(mem, 'inside-link.md'));
  symlinkSync(join(outside, 'secret.md'), join(mem, 'outside-link.md'));
  symlinkSync(join(mem, 'gone.md'), join(mem, 'dangling.md'));
  symlinkSync(join(mem, 'b'), join(mem, 'folder-link'));
  execFileSync('mkfifo', [join(mem, 'pipe.md')]);
  const warned: string[] = [];
  setLinkWarning((line) => warned.push(line));
  const fast = statedMemoryFiles(ws);
  const walked = statedMarkdownFiles(mem, ws).map(({ rel, st }) => ({
    file: `memory/${rel}`,
    size: st.size,
    mtimeMs: st.mtimeMs,
    ctimeMs: st.ctimeMs,
  }));
  assert.deepEqual(fast, walked);
  assert.deepEqual(
    fast.map((f) => f.file),
    [
      'memory/2026-01-01.md',
      'memory/2026-01-02.md',
      'memory/a.md.d/y.md',
      'memory/b.md',
      'memory/b/2026-01-03.md',
      'memory/b/deeper/x.md',
      'memory/inside-link.md',
    ],
  );
  assert.ok(
    warned.some((w) => w.includes('outside-link.md')),
    'a link out of the workspace is named in a warning',
  );
  assert.equal(memoryFilesDigest(ws), filesDigestOf(fast), 'the stamp made while listing is the stamp of the listing');
  assert.deepEqual(statedMemoryFiles(tempDir(t)), [], 'no memory/: no files');
});

test('the stamp of memory/ changes with an edit that keeps the size: in place, by rename, with the mtime set back', async (t) => {
  const ws = tempDir(t);
  const mem = join(ws, 'memory');
  mkdirSync(mem);
  const file = join(mem, '2026-01-01.md');
  writeFileSync(file, '- status: active\n');
  writeFileSync(join(mem, '2026-01-02.md'), 'other\n');
  const seen = new Set<string>();
  const stamp = () => {
    const s = memoryFilesDigest(ws);
    assert.equal(s, filesDigestOf(statedMemoryFiles(ws)));
    return s;
  };
  const fresh = (what: string) => {
    const s = stamp();
    assert.ok(!seen.has(s), `${what}: the stamp changed`);
    seen.add(s);
  };
  fresh('first');
  assert.equal(stamp(), [...seen][0], 'nothing changed: the same stamp');
  await sleep(15);
  writeFileSync(file, '- status: retird\n'); // same size, in place
  fresh('an edit in place keeping the size');
  await sleep(15);
  writeFileSync(join(mem, '.tmp'), '- status: active\n');
  renameSync(join(mem, '.tmp'), file); // an editor's save: a new file by rename, same size
  fresh('a file replaced by a rename');
  utimesSync(file, 1_700_000_000, 1_700_000_000);
  fresh('the mtime set');
  const before = statSync(file).mtimeMs;
  await sleep(15);
  writeFileSync(file, '- status: done!!\n');
  utimesSync(file, 1_700_000_000, 1_700_000_000); // the mtime set back (`touch -r`, or an edit within a coarse clock's same tick)
  assert.equal(statSync(file).mtimeMs, before);
  fresh('an edit whose mtime was set back (the ctime tells)');
  renameSync(join(mem, '2026-01-02.md'), join(mem, '2026-01-03.md'));
  fresh('a file renamed');
});

test('the stamp keeps its parts apart and tells near inputs apart', () => {
  assert.notEqual(stampOfTexts('ab', 'c'), stampOfTexts('a', 'bc'));
  assert.notEqual(stampOfTexts(''), stampOfTexts());
  assert.notEqual(new Stamp().num(1).hex(), new Stamp().num(1.0000000000000002).hex());
  assert.match(stampOfTexts('x'), /^[0-9a-f]{32}$/);
  // 20,000 near inputs (one character or one number apart): no two alike.
  const all = new Set<string>();
  for (let i = 0; i < 10_000; i++) {
    all.add(stampOfTexts(`memory/2026-01-${i}.md`));
    all.add(
      new Stamp()
        .text('memory/2026-01-01.md')
        .num(1764250000000 + i / 1000)
        .hex(),
    );
  }
  assert.equal(all.size, 20_000);
});
