/** The scan's stat (src/search/index/quick-stat.ts): the same answers as fs.statSync, never a throw, and no deprecation warning. */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { quickStat, type QuickStat } from '../src/search/index/quick-stat.js';
import { memOk, tempDir } from './helpers/cli.js';

function expected(abs: string): QuickStat | undefined {
  try {
    const st = statSync(abs, { throwIfNoEntry: false });
    return (
      st && {
        kind: st.isFile() ? 'file' : st.isDirectory() ? 'folder' : 'other',
        size: st.size,
        mtimeMs: st.mtimeMs,
        ctimeMs: st.ctimeMs,
      }
    );
  } catch {
    return undefined;
  }
}

test('quickStat gives what fs.statSync gives for files, folders, links, FIFOs and missing paths', (t) => {
  const dir = tempDir(t, 'memfold-quick-stat-');
  writeFileSync(join(dir, 'a.md'), 'x'.repeat(1234));
  utimesSync(join(dir, 'a.md'), 1_700_000_000.123457, 1_700_000_001.987654);
  mkdirSync(join(dir, 'folder.md'));
  symlinkSync('a.md', join(dir, 'link.md'));
  symlinkSync('gone.md', join(dir, 'dangling.md'));
  symlinkSync('loop.md', join(dir, 'loop.md'));
  execFileSync('mkfifo', [join(dir, 'fifo.md')]);
  writeFileSync(join(dir, 'empty.md'), '');
  const names = [
    'a.md',
    'folder.md',
    'link.md',
    'dangling.md',
    'loop.md',
    'fifo.md',
    'empty.md',
    'missing.md',
    'a.md/under',
  ];
  const got = Object.fromEntries(names.map((n) => [n, quickStat(join(dir, n))]));
  assert.deepEqual(got, Object.fromEntries(names.map((n) => [n, expected(join(dir, n))])));
  assert.deepEqual(got['link.md'], { ...got['a.md'] }, 'a link is followed');
  assert.equal(got['fifo.md']?.kind, 'other');
  assert.equal(got['a.md']?.size, 1234);
  for (const n of ['dangling.md', 'loop.md', 'missing.md', 'a.md/under']) assert.equal(got[n], undefined, n);
});

test('with pending deprecation (however spelt) mem index prints no warning, and a second run finds nothing changed', async (t) => {
  const ws = tempDir(t, 'memfold-quick-stat-ws-');
  await memOk(['init', ws]);
  mkdirSync(join(ws, 'memory', 'notes'), { recursive: true });
  for (let i = 0; i < 20; i++)
    writeFileSync(join(ws, 'memory', 'notes', `n${i}.md`), `# Note ${i}\n\nWe keep SQLite number ${i}.\n`);
  // --throw-deprecation: a warning would end the run; Node takes `_` for `-` in its flags.
  for (const flag of ['--pending-deprecation', '--pending_deprecation']) {
    const portable = await memOk(['-C', ws, '--json', 'index'], {
      env: { NODE_OPTIONS: `${flag} --throw-deprecation` },
    });
    assert.doesNotMatch(portable.stderr, /Deprecation|DEP0111|process\.binding/, flag);
  }
  const tierFile = join(ws, '.mem', 'index', 'warm.json');
  const written = readFileSync(tierFile);
  // The recorded stats are found again: the manifest's fingerprint matches, so nothing is rewritten.
  const again = JSON.parse((await memOk(['-C', ws, '--json', 'index'])).stdout) as {
    tiers: { warm: { unchanged: number; files: number } };
  };
  assert.equal(again.tiers.warm.unchanged, again.tiers.warm.files);
  assert.deepEqual(readFileSync(tierFile), written, 'the tier file is not written again');
});
