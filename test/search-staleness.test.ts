/** The index notices what makes it stale besides a file's size and mtime: settings, restored mtimes, zones, long sections. */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fingerprint, index, search, searchWorkspace } from './search-helpers.js';

function setConfig(ws: string, patch: Record<string, unknown>): void {
  const file = join(ws, 'mem.config.json');
  writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), ...patch }, null, 2));
}

/** A heading-less note of `n` lines of twenty words; line `at` also holds `word`. */
function longNote(n: number, at: number, word: string): string {
  const lines = Array.from(
    { length: n },
    (_, i) =>
      `line ${i + 1} ` +
      'alpha beta gamma delta epsilon zeta theta kappa lambda sigma omega rho tau phi chi psi iota nu xi'
        .split(' ')
        .join(' '),
  );
  lines[at - 1] += ` ${word}`;
  return lines.join('\n') + '\n';
}

describe('index staleness', { concurrency: 3 }, () => {
  test('changed chunk settings: search answers from memory with the new windows, mem index rebuilds once', async (t) => {
    const ws = searchWorkspace(t);
    mkdirSync(join(ws, 'memory', 'notes'));
    writeFileSync(join(ws, 'memory', 'notes', 'long.md'), longNote(60, 30, 'zebrafish'));
    await index(ws);
    const wide = (await search(ws, 'zebrafish')).results[0]!;
    assert.ok(
      wide.endLine - wide.startLine > 10,
      `400-token windows span many lines (${wide.startLine}-${wide.endLine})`,
    );

    setConfig(ws, { search: { chunkTokens: 60, overlapTokens: 0 } });
    const before = fingerprint(ws);
    const res = await search(ws, 'zebrafish');
    assert.match(res.stderr, /warm index unusable \(.*chunked with other settings.*\).*run "mem index"/);
    const narrow = res.results[0]!;
    assert.ok(
      narrow.startLine <= 30 && narrow.endLine >= 30 && narrow.endLine - narrow.startLine < 5,
      `60-token windows (${narrow.startLine}-${narrow.endLine})`,
    );
    assert.deepEqual(fingerprint(ws), before, 'search writes nothing');

    const rebuilt = await index(ws);
    assert.equal(rebuilt.tiers.warm!.rebuilt, 'version');
    assert.match(rebuilt.stderr, /chunked with other settings.*rebuilt the warm index/);
    const after = await search(ws, 'zebrafish');
    assert.doesNotMatch(after.stderr, /unusable/);
    assert.deepEqual([after.results[0]!.startLine, after.results[0]!.endLine], [narrow.startLine, narrow.endLine]);
    assert.equal((await index(ws)).tiers.warm!.rebuilt, null, 'rebuilt once');
  });

  test('a same-size edit with its mtime restored (touch -r) is seen by search and indexed', async (t) => {
    const ws = searchWorkspace(t);
    const file = join(ws, 'memory', 'notes.md');
    writeFileSync(file, '# Notes\n\nThe walrus sleeps on the ice.\n');
    await index(ws);
    const ref = join(ws, 'ref.txt');
    writeFileSync(ref, '');
    execFileSync('touch', ['-r', file, ref]);
    writeFileSync(file, '# Notes\n\nThe narwal sleeps on the ice.\n');
    execFileSync('touch', ['-r', ref, file]);
    assert.equal(statSync(file).mtimeMs, statSync(ref).mtimeMs);

    const seen = await search(ws, 'narwal');
    assert.deepEqual(
      seen.results.map((r) => r.path),
      ['memory/notes.md'],
    );
    assert.match(seen.stderr, /behind|mem index/);
    const res = await index(ws);
    assert.equal(res.tiers.warm!.changed, 1);
    assert.deepEqual(
      (await search(ws, 'narwal')).results.map((r) => r.path),
      ['memory/notes.md'],
    );
    assert.deepEqual((await search(ws, 'walrus')).results, []);
  });

  test('a front-matter timestamp keeps the day it was written with: --since that day finds it', async (t) => {
    const ws = searchWorkspace(t);
    setConfig(ws, { timezone: 'Asia/Tokyo' });
    writeFileSync(
      join(ws, 'memory', 'standup.md'),
      '---\ntitle: Standup\ndate: 2026-11-21T08:00:00+09:00\n---\n\n# Standup\n\nThe capybara migration starts today.\n',
    );
    await index(ws);
    const res = await search(ws, 'capybara', '--since', '2026-11-21');
    assert.deepEqual(
      res.results.map((r) => [r.path, r.date]),
      [['memory/standup.md', '2026-11-21']],
    );
  });
});
