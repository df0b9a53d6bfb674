/**
 * core/stat-numbers.ts: the numbers the listing of memory/ and the summaries' line counts use are
 * fs.statSync's to the bit, whichever way they are read (the binding on Node 20, fs.statSync
 * otherwise), for a file, a folder, a link, nothing there and a link loop; and on Node 20 on Linux the
 * fast way is the one chosen (a Node whose fs.statSync changed shape would silently lose it).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { resetStatNumbers, statNumbers, statNumbersWay } from '../src/core/stat-numbers.js';

describe('statNumbers', () => {
  it('gives fs.statSync numbers both ways, undefined for nothing, and throws on a loop', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mem-stat-'));
    try {
      const file = path.join(dir, 'a.md');
      fs.writeFileSync(file, 'x'.repeat(1234));
      fs.utimesSync(file, 1_700_000_000.123456, 1_700_000_001.987654);
      fs.mkdirSync(path.join(dir, 'sub.md'));
      fs.symlinkSync(file, path.join(dir, 'link.md'));
      fs.symlinkSync(path.join(dir, 'gone'), path.join(dir, 'dangling.md'));
      fs.symlinkSync(path.join(dir, 'loop2'), path.join(dir, 'loop1'));
      fs.symlinkSync(path.join(dir, 'loop1'), path.join(dir, 'loop2'));
      for (const way of [undefined, false] as const) {
        resetStatNumbers(way);
        for (const name of ['a.md', 'sub.md', 'link.md', 'a.md']) {
          const p = path.join(dir, name);
          const st = fs.statSync(p);
          assert.deepEqual(
            statNumbers(p),
            { isFile: st.isFile(), size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs },
            `${name} (${statNumbersWay()})`,
          );
        }
        assert.equal(statNumbers(path.join(dir, 'missing.md')), undefined);
        assert.equal(statNumbers(path.join(dir, 'dangling.md')), undefined);
        assert.throws(() => statNumbers(path.join(dir, 'loop1')), { code: 'ELOOP' });
        if (way === false) assert.equal(statNumbersWay(), 'statSync');
      }
      resetStatNumbers(undefined);
      statNumbers(file);
      const node20 = Number(process.versions.node.split('.')[0]) < 22 && process.platform !== 'win32';
      assert.equal(statNumbersWay(), node20 ? 'binding' : 'statSync');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
