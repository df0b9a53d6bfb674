/**
 * status/index-freshness.ts: the dirty files `mem status` counts and names are the same whether it
 * is given status's own listing of memory/ and the summaries' mtimes (what collect.ts passes, so
 * nothing is listed or stated twice) or lists and states every file itself: the same count, the
 * first 20 in the index's order (MEMORY.md, memory/ by path, then the extra paths), files older than
 * the index never named, a missing extra path and a dot-file skipped.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { Config } from '../src/config/schema.js';
import { statedMemoryFiles } from '../src/entries/heads-files.js';
import { indexFreshness } from '../src/status/index-freshness.js';
import { summaryLines } from '../src/workspace/summary-lines.js';

describe('index freshness', () => {
  it('names the same dirty files from status’s listing as from its own', () => {
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'mem-fresh-'));
    try {
      const put = (rel: string, secondsAgo: number) => {
        const abs = path.join(ws, rel);
        fs.mkdirSync(path.dirname(abs), { recursive: true });
        fs.writeFileSync(abs, `${rel}\n`);
        const t = Date.now() / 1000 - secondsAgo;
        fs.utimesSync(abs, t, t);
      };
      put('.mem/index/manifest.json', 1000);
      put('MEMORY.md', 10);
      // 50 daily files, the even ones edited after the last index update (more than the 20 named); one in a subfolder.
      for (let d = 1; d <= 50; d++) put(`memory/d${String(d).padStart(2, '0')}.md`, d % 2 ? 2000 : 10);
      put('memory/topics/a.md', 10);
      put('memory/.hidden.md', 10);
      put('second-brain/summaries/2026-01-01-wrapup.md', 10);
      put('second-brain/summaries/2026-01-02-wrapup.md', 2000);
      const config = { extraPaths: ['second-brain/summaries', 'gone/'] } as unknown as Config;
      const listed = statedMemoryFiles(ws);
      const given = indexFreshness(ws, config, null, listed, new Map(summaryLines(ws).map((f) => [f.path, f.mtimeMs])));
      const own = indexFreshness(ws, config, null);
      const evens = Array.from({ length: 25 }, (_, i) => `memory/d${String(2 * i + 2).padStart(2, '0')}.md`);
      const expected = ['MEMORY.md', ...evens, 'memory/topics/a.md', 'second-brain/summaries/2026-01-01-wrapup.md'];
      assert.equal(given.dirtyFiles, expected.length);
      assert.deepEqual(given.dirty, expected.slice(0, 20));
      // Its own walk of memory/ is in readdir order: the same count, named from the same files.
      assert.equal(own.dirtyFiles, given.dirtyFiles);
      assert.equal(own.dirty.length, 20);
      assert.ok(own.dirty.every((f) => expected.includes(f)));
      assert.equal(given.lastUpdate, own.lastUpdate);
    } finally {
      fs.rmSync(ws, { recursive: true, force: true });
    }
  });
});
