/**
 * compound makes all of a daily file's status flips in one write: 15 flips each in an LF file and a
 * CRLF file (status lines at any indentation, in any place, missing, at the end of a file without a
 * final line break) give the bytes and weekly log lines flipping them one by one gave
 * (fixtures/compound-flips/, produced by the build before this change), and each file is renamed
 * into place once: a preloaded script counts the CLI's fs.promises.rename calls per target.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { memOk, ROOT, tempDir } from './helpers/cli.js';

const FIXTURES = join(ROOT, 'test', 'fixtures', 'compound-flips');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');
/** The LF fixture as a second day's file: other ids and keys, CRLF line endings. */
const asCrlfDay = (text: string) =>
  text
    .replaceAll('2026-11-17', '2026-11-18')
    .replaceAll('20261117', '20261118')
    .replaceAll('rule:', 'rule:crlf-')
    .replace(/\n/g, '\r\n');

/** NODE_OPTIONS for a child that writes how often each file was renamed into place, as JSON, to `out` when it exits. */
function renameCounter(dir: string, out: string): Record<string, string> {
  const preload = join(dir, 'count-renames.cjs');
  writeFileSync(
    preload,
    `const fs = require('node:fs');
const counts = {};
const rename = fs.promises.rename;
fs.promises.rename = (from, to) => { counts[to] = (counts[to] ?? 0) + 1; return rename(from, to); };
process.on('exit', () => fs.writeFileSync(${JSON.stringify(out)}, JSON.stringify(counts)));
`,
  );
  return { NODE_OPTIONS: `--require=${preload}` };
}

test('compound writes a daily file once for all its flips, with the bytes of flipping them one by one', async (t) => {
  const dir = tempDir(t);
  const ws = join(dir, 'w');
  await memOk(['init', ws]);
  writeFileSync(join(ws, 'memory/2026-11-17.md'), fixture('input.md'));
  writeFileSync(join(ws, 'memory/2026-11-18.md'), asCrlfDay(fixture('input.md')));
  const counts = join(dir, 'renames.json');
  const r = await memOk(['-C', ws, '--now', '2026-11-24T04:00', '--json', 'compound', '--no-llm'], {
    env: renameCounter(dir, counts),
  });
  assert.equal(JSON.parse(r.stdout).superseded.length, 30);

  assert.equal(readFileSync(join(ws, 'memory/2026-11-17.md'), 'utf8'), fixture('expected.md'));
  assert.equal(readFileSync(join(ws, 'memory/2026-11-18.md'), 'utf8'), asCrlfDay(fixture('expected.md')));
  const log = readFileSync(join(ws, 'memory/archive/weekly-2026-W47.md'), 'utf8');
  assert.equal(
    log
      .split('\n')
      .filter((l) => /^- (superseded|skipped):/.test(l))
      .join('\n') + '\n',
    fixture('weekly-flips.txt'),
  );

  const renamed = JSON.parse(readFileSync(counts, 'utf8')) as Record<string, number>;
  const daily = (day: string) =>
    Object.entries(renamed)
      .filter(([to]) => to.endsWith(`/memory/${day}.md`))
      .map(([, n]) => n);
  assert.deepEqual(daily('2026-11-17'), [1], JSON.stringify(renamed));
  assert.deepEqual(daily('2026-11-18'), [1], JSON.stringify(renamed));
});
