/**
 * Ranking of `mem search` where it used to depend on how the index happened to be cut: common words
 * over the posting cap (engine.ts POSTING_CAP), segments added by `mem index`, dead chunks, k, and
 * supersession seen at query time. Through the built CLI on generated workspaces.
 */
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { tempDir } from './helpers/cli.js';
import { ids, index, ok, search, searchWorkspace } from './search-helpers.js';

const PG = 'DECISION-20261121-move-event-store-to-postgresql';
const SQLITE = 'DECISION-20261002-use-sqlite-for-events';

/** A workspace of `files` topic files of `sections` sections each; `body(file, section)` gives a section's text. */
async function generated(
  t: { after(fn: () => void): void },
  files: number,
  sections: number,
  body: (f: number, s: number) => string,
): Promise<string> {
  const ws = join(tempDir(t, 'memfold-ranking-'), 'ws');
  await ok(['init', ws]);
  mkdirSync(join(ws, 'memory', 'topics'), { recursive: true });
  for (let f = 0; f < files; f++) {
    const text = Array.from({ length: sections }, (_, s) => `## Topic ${f} part ${s}\n\n${body(f, s)}\n`).join('\n');
    writeFileSync(join(ws, 'memory', 'topics', `t${String(f).padStart(3, '0')}.md`), text);
  }
  return ws;
}

/** A deterministic word salad: `n` filler words picked by a small linear congruential generator. */
function filler(seed: number, n: number): string {
  const words = [
    'alpha',
    'river',
    'stone',
    'cloud',
    'maple',
    'ember',
    'frost',
    'grove',
    'harbor',
    'island',
    'jasper',
    'kettle',
  ];
  let x = (seed * 2654435761) % 4294967296;
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    x = (x * 1664525 + 1013904223) % 4294967296;
    out.push(words[x % words.length]!);
  }
  return out.join(' ');
}

/**
 * Two common words, each in over POSTING_CAP sections of 8,600: a third of the sections say one of
 * them four times, a third say both once in a long text (low impact: read last), and the few that
 * say both twice in a short text rank first, though they come after the first third in impact order.
 * File t007 holds more of those, in longer texts: they rank below the others.
 */
const twoCommonWords = (f: number, s: number) => {
  const g = f * 100 + s;
  if (g % 200 === 7) return `latency latency budget budget ${filler(g, 6 + Math.floor(g / 200))}`;
  if (f === 7 && s % 10 === 0) return `latency latency budget budget ${filler(g, 60 + s)}`;
  if (g % 3 === 0) return `latency budget ${filler(g, 40)}`;
  return `${g % 3 === 1 ? 'latency '.repeat(4) : 'budget '.repeat(4)}${filler(g, 10)}`;
};

describe('mem search ranking', { concurrency: 2 }, () => {
  test('after a one-file edit, `mem index` ranks a common-word query as a rebuilt index does', async (t) => {
    const ws = await generated(t, 86, 100, twoCommonWords);
    await index(ws, '--rebuild');
    appendFileSync(join(ws, 'memory', 'topics', 't007.md'), '\n- note: weather\n');
    await index(ws);
    const incremental = await search(ws, 'latency budget', '-k', '8');
    await index(ws, '--rebuild');
    const rebuilt = await search(ws, 'latency budget', '-k', '8');
    assert.deepEqual(ids(incremental), ids(rebuilt));
  });

  test('new chunks that say common words most are ranked first by an overlay, an update and a rebuild alike', async (t) => {
    const ws = await generated(t, 86, 100, twoCommonWords);
    await index(ws, '--rebuild');
    // Short and saying both words three times: the best chunks of all, in files with 100 others each.
    for (const f of ['t010', 't040', 't070'])
      appendFileSync(
        join(ws, 'memory', 'topics', `${f}.md`),
        `\n## Fresh ${f}\n\nlatency latency latency budget budget budget\n`,
      );
    const fresh = ['memory/topics/t010.md:401', 'memory/topics/t040.md:401', 'memory/topics/t070.md:401'];
    const overlay = await search(ws, 'latency budget', '-k', '5');
    assert.equal(overlay.indexBehind, true);
    assert.deepEqual(ids(overlay).slice(0, 3).sort(), fresh);
    await index(ws);
    const incremental = await search(ws, 'latency budget', '-k', '5');
    await index(ws, '--rebuild');
    const rebuilt = await search(ws, 'latency budget', '-k', '5');
    assert.deepEqual(ids(rebuilt).slice(0, 3).sort(), fresh);
    assert.deepEqual(ids(incremental), ids(rebuilt));
    assert.deepEqual(ids(overlay), ids(rebuilt));
  });

  test('a search over many files edited since the last index ranks a common-word query as a rebuilt index does', async (t) => {
    // "latency" in three sections of four of 20,000; four times in the last section of every tenth of the first 100 files (the best).
    const ws = await generated(t, 200, 100, (f, s) => {
      const g = f * 100 + s;
      if (s === 99 && f % 10 === 0 && f < 100) return `latency latency latency latency ${filler(f, 4)}`;
      return g % 4 ? `latency ${filler(g, 20)}` : filler(g, 20);
    });
    await index(ws, '--rebuild');
    // The first 100 files overlaid in memory, their best chunks last in doc order: a share of their list must be its best.
    for (let f = 0; f < 100; f++) {
      const file = join(ws, 'memory', 'topics', `t${String(f).padStart(3, '0')}.md`);
      writeFileSync(file, `# Touched\n\n${readFileSync(file, 'utf8')}`);
    }
    const overlay = await search(ws, 'latency', '-k', '8');
    assert.equal(overlay.indexBehind, true);
    await index(ws, '--rebuild');
    const rebuilt = await search(ws, 'latency', '-k', '8');
    assert.ok(
      rebuilt.results.every((r) => r.startLine === 399),
      JSON.stringify(ids(rebuilt)),
    );
    assert.deepEqual(ids(overlay), ids(rebuilt));
  });

  test("a filter finds its file's chunks of a common word, however far down the posting list they are", async (t) => {
    const ws = await generated(t, 86, 100, twoCommonWords);
    await index(ws, '--rebuild');
    // t085's 33 chunks that say "latency" four times tie with 2,800 others; the 2,000 best hits were other files'.
    const res = await search(ws, 'latency', '--path', 'memory/topics/t085.md', '-k', '3');
    assert.equal(res.results.length, 3);
    for (const r of res.results) assert.equal(r.path, 'memory/topics/t085.md');
  });

  test('chunks left dead by `mem index` do not make a word too common to have its stem searched', async (t) => {
    // 120 sections say "deployments" (under the 200 that turn the stem off); one.md says "deployment" only.
    const ws = await generated(t, 1, 120, (_, s) => `deployments ${filler(s, 12)}`);
    writeFileSync(join(ws, 'memory', 'one.md'), '## Rollout\n\nThe deployment went out on Friday.\n');
    await index(ws, '--rebuild');
    assert.equal((await search(ws, 'deployments', '--path', '**/one.md')).results.length, 1);
    // Re-chunked: its 120 old chunks are dead, 120 new ones live in a new segment.
    appendFileSync(join(ws, 'memory', 'topics', 't000.md'), '\n');
    await index(ws);
    assert.equal((await search(ws, 'deployments', '--path', '**/one.md')).results.length, 1);
  });

  test('-k 1 gives the successor that -k 2 lists first, not the entry it superseded', async (t) => {
    const ws = searchWorkspace(t);
    await index(ws);
    // The superseded SQLite decision outscores its PostgreSQL successor on "sqlite" (×0.6 and all).
    const two = await search(ws, 'sqlite', '--deep', '-k', '2');
    assert.deepEqual(ids(two), [PG, SQLITE]);
    assert.deepEqual(ids(await search(ws, 'sqlite', '--deep', '-k', '1')), [PG]);
  });

  test('an active entry that a newer entry supersedes is shown superseded before compound flips it', async (t) => {
    const ws = join(tempDir(t, 'memfold-ranking-'), 'ws');
    await ok(['init', ws]);
    const remember = (now: string, text: string) =>
      ok(['-C', ws, '--json', '--now', now, 'remember', text, '--kind', 'decision', '--key', 'decision:shop:pm']);
    const old = JSON.parse(
      (await remember('2026-11-20T10:00:00Z', 'Use npm for the shop: npm npm npm as package manager')).stdout,
    ).id as string;
    const next = JSON.parse((await remember('2026-11-21T10:00:00Z', 'Use pnpm for the shop, not npm')).stdout)
      .id as string;
    await index(ws);
    const res = await search(ws, 'npm');
    assert.deepEqual(
      res.results.map((r) => [r.id, r.status, r.supersededBy]),
      [
        [next, 'active', null],
        [old, 'superseded', next],
      ],
    );
    assert.deepEqual(ids(await search(ws, 'npm', '--status', 'active')), [next]);
  });
});
