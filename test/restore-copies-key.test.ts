/**
 * `mem restore` brings back every copy `mem forget` retracted, and `mem trace` / `mem restore` see a
 * supersession by `key` as compound does (a newer active entry with the same key). Built CLI.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { mem } from './helpers/cli.js';
import { daily, entry, files, workspace } from './fixtures/governance/workspace.js';

const NOW = ['--now', '2026-11-24T10:00:00Z'];
const json = (stdout: string) => JSON.parse(stdout) as Record<string, any>;

describe('restore every copy; key successors in trace and restore', { concurrency: 2 }, () => {
  test('an entry in a daily file and in projects/: forget retracts both, restore brings both back', async (t) => {
    const id = 'RULE-20261116-run-migrations-before-deploy';
    const e = entry({
      id,
      title: 'Run migrations before deploy',
      date: '2026-11-16',
      fields: { conclusion: 'run the migrations before each deploy' },
    });
    const ws = workspace(t, {
      'memory/2026-11-16.md': daily('2026-11-16', [e]),
      'memory/projects/shop.md': `# Shop\n\n${e}`,
    });
    const before = files(ws);
    const f = await mem(['-C', ws, ...NOW, '--json', 'forget', id]);
    assert.equal(f.code, 0, f.stderr);
    assert.deepEqual(
      json(f.stdout)
        .retracted.map((x: { file: string }) => x.file)
        .sort(),
      ['memory/2026-11-16.md', 'memory/projects/shop.md'],
    );
    const r = await mem(['-C', ws, ...NOW, '--json', 'restore', id]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(
      json(r.stdout)
        .copies.map((c: { file: string; from: string; changed: boolean }) => [c.file, c.from, c.changed])
        .sort(),
      [
        ['memory/2026-11-16.md', 'retracted', true],
        ['memory/projects/shop.md', 'retracted', true],
      ],
    );
    for (const file of ['memory/2026-11-16.md', 'memory/projects/shop.md'])
      assert.equal(readFileSync(join(ws, file), 'utf8'), before.get(file), `${file} back to its bytes`);
  });

  test('a newer active entry with the same key: trace names it current, restore warns compound will supersede again', async (t) => {
    const OLD = 'DECISION-20261116-cache-in-redis';
    const NEW = 'DECISION-20261118-cache-in-process';
    const key = 'decision:shop:cache';
    const ws = workspace(t, {
      'memory/2026-11-16.md': daily('2026-11-16', [
        entry({
          id: OLD,
          title: 'Cache in Redis',
          date: '2026-11-16',
          fields: { key, conclusion: 'cache sessions in Redis', status: 'superseded' },
        }),
      ]),
      'memory/2026-11-18.md': daily('2026-11-18', [
        entry({
          id: NEW,
          title: 'Cache in process',
          date: '2026-11-18',
          fields: { key, conclusion: 'cache sessions in process memory' },
        }),
      ]),
    });
    for (const id of [OLD, NEW]) {
      const tr = await mem(['-C', ws, ...NOW, '--json', 'trace', id]);
      assert.equal(tr.code, 0, tr.stderr);
      assert.deepEqual(
        json(tr.stdout).chain.map((s: { id: string; status: string }) => [s.id, s.status]),
        [
          [OLD, 'superseded'],
          [NEW, 'active'],
        ],
      );
      assert.equal(json(tr.stdout).current, NEW);
    }
    const dry = await mem(['-C', ws, ...NOW, '--json', 'restore', OLD, '--dry-run']);
    assert.equal(dry.code, 0, dry.stderr);
    assert.deepEqual(json(dry.stdout).stillSupersededBy, [NEW]);
    assert.deepEqual(json(dry.stdout).sameKey, { key, by: NEW });
    const r = await mem(['-C', ws, ...NOW, 'restore', OLD]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stderr,
      new RegExp(
        `${NEW} is a newer active entry with the same key ${key}: the next "mem compound" supersedes ${OLD} again`,
      ),
    );
    // Both active now: trace still says which one compound keeps.
    const tr = await mem(['-C', ws, ...NOW, '--json', 'trace', OLD]);
    assert.equal(json(tr.stdout).current, NEW);
    // And compound does flip it back, as the warning said.
    assert.equal((await mem(['-C', ws, ...NOW, 'compound'])).code, 0);
    assert.match(readFileSync(join(ws, 'memory/2026-11-16.md'), 'utf8'), /- status: superseded\n/);
  });
});
