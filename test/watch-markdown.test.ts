/** The one file watcher (src/workspace/watch-markdown.ts) on real files: what it reports, what it leaves out, polling. */
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { watchMarkdown } from '../src/workspace/watch-markdown.js';
import { tempDir } from './helpers/cli.js';
import { waitFor } from './helpers/daemon.js';

test('reports Markdown made, edited, saved over, moved and removed, in new folders and a root made later; never a link outside, a dot-name or another file; polls once native watching fails', async (t) => {
  const root = tempDir(t);
  const ws = join(root, 'ws');
  const mem = join(ws, 'memory');
  mkdirSync(mem, { recursive: true });
  mkdirSync(join(root, 'outside'));
  writeFileSync(join(root, 'outside', 'secret.md'), '# not memory\n');
  writeFileSync(join(ws, 'MEMORY.md'), '# Memory\n');
  const seen = new Set<string>();
  const ever = new Set<string>();
  const fails: string[] = [];
  const w = watchMarkdown({
    roots: [join(ws, 'MEMORY.md'), mem, join(ws, 'notes')],
    inside: [ws],
    pollMs: 50,
    onChange: (paths) => paths.forEach((p) => (seen.add(p), ever.add(p))),
    onFail: (code, polling) => fails.push(`${code} ${polling}`),
  });
  t.after(() => w.close());
  const expect = async (what: string, ...paths: string[]) => {
    await waitFor(what, () => paths.every((p) => seen.has(p)), 10_000, 10);
    seen.clear();
  };

  writeFileSync(join(mem, 'a.md'), '## Note: one\n');
  await expect('a new file', join(mem, 'a.md'));
  appendFileSync(join(mem, 'a.md'), '- why: edited in place\n');
  await expect('an edit in place', join(mem, 'a.md'));
  writeFileSync(join(mem, '.a.md.swp'), 'editor state');
  writeFileSync(join(mem, 'a.md.tmp'), '## Note: saved whole\n');
  renameSync(join(mem, 'a.md.tmp'), join(mem, 'a.md'));
  await expect('an atomic save over the file', join(mem, 'a.md'));
  mkdirSync(join(mem, 'sub'));
  await expect('a new folder', join(mem, 'sub'));
  writeFileSync(join(mem, 'sub', 'b.md'), '## Note: two\n');
  await expect('a file in the new folder', join(mem, 'sub', 'b.md'));
  renameSync(join(mem, 'sub'), join(mem, 'moved'));
  await expect('a folder moved', join(mem, 'sub'), join(mem, 'moved'));
  writeFileSync(join(mem, 'moved', 'c.md'), '## Note: three\n');
  await expect('a file in the moved folder', join(mem, 'moved', 'c.md'));
  unlinkSync(join(mem, 'a.md'));
  await expect('a file removed', join(mem, 'a.md'));
  rmSync(join(mem, 'moved'), { recursive: true });
  await expect('a folder removed', join(mem, 'moved'));
  appendFileSync(join(ws, 'MEMORY.md'), '- edited\n');
  await expect('MEMORY.md edited', join(ws, 'MEMORY.md'));
  mkdirSync(join(ws, 'notes'));
  await expect('a root made after the start', join(ws, 'notes'));
  writeFileSync(join(ws, 'notes', 'n.md'), '# Note\n');
  await expect('a file in that root', join(ws, 'notes', 'n.md'));

  symlinkSync(join(root, 'outside', 'secret.md'), join(mem, 'out.md'));
  symlinkSync(join(ws, 'MEMORY.md'), join(mem, 'in.md'));
  writeFileSync(join(mem, 'notes.txt'), 'not Markdown');
  mkdirSync(join(ws, '.mem'));
  writeFileSync(join(ws, 'other.md'), 'not in a root');
  appendFileSync(join(root, 'outside', 'secret.md'), 'edited\n');
  await expect('a link inside the workspace', join(mem, 'in.md'));
  writeFileSync(join(mem, 'z.md'), 'the last event');
  await expect('a file written after the rest', join(mem, 'z.md'));
  const never = ['out.md', '.a.md.swp', 'notes.txt'].map((n) => join(mem, n));
  assert.deepEqual(
    [...ever].filter((p) => never.includes(p) || p.startsWith(root + '/outside')),
    [],
  );

  w.fail('EMFILE');
  assert.deepEqual(fails, ['EMFILE true']);
  await expect('every root, as events may have been lost', join(ws, 'MEMORY.md'), mem, join(ws, 'notes'));
  writeFileSync(join(ws, 'notes', 'polled.md'), '# Polled\n');
  unlinkSync(join(mem, 'z.md'));
  await expect('a new and a removed file, polled', join(ws, 'notes', 'polled.md'), join(mem, 'z.md'));
});

test('with debounceMs, changes close together come in one call', async (t) => {
  const mem = tempDir(t);
  const calls: string[][] = [];
  const w = watchMarkdown({ roots: [mem], inside: [mem], debounceMs: 150, onChange: (p) => calls.push(p.sort()) });
  t.after(() => w.close());
  for (const n of ['a', 'b', 'c']) writeFileSync(join(mem, `${n}.md`), n);
  await waitFor('one call', () => calls.length > 0, 10_000, 10);
  await new Promise((r) => setTimeout(r, 300));
  assert.deepEqual(calls, [['a', 'b', 'c'].map((n) => join(mem, `${n}.md`))]);
});
