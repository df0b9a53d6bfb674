/**
 * An index that is deleted, truncated or from a future version — before or while a search runs —
 * never costs an answer: the search still answers from the files and says so in one warning line
 * (DESIGN §9: `.mem/` is derived and can always be rebuilt). Complements search.test.ts, which
 * covers a deleted `.mem/`, an older version, invalid JSON and a truncated postings file.
 */
import assert from 'node:assert/strict';
import { appendFileSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runSearch } from '../src/search/index.js';
import { mem } from './helpers/cli.js';
import { index, NOW, readTier, search, searchWorkspace, writeTierHead } from './search-helpers.js';

const Q = 'SQLite events';
const ids = (r: { results: Record<string, unknown>[] }) => r.results.map((x) => x.id);
const warmFile = (ws: string, ext: string) =>
  join(
    ws,
    '.mem',
    'index',
    readdirSync(join(ws, '.mem', 'index')).find((n) => n.startsWith('warm-') && n.endsWith(ext))!,
  );

test('a future index version, a truncated or missing segment file: same answer, one warning naming it', async (t) => {
  const ws = searchWorkspace(t);
  await index(ws);
  const want = ids(await search(ws, Q, '--deep'));
  assert.ok(want.length >= 2);

  writeTierHead(ws, 'warm', { ...readTier(ws, 'warm').head, version: 'memfold-index/99 minisearch@9.0.0 tokenizer/7' });
  const future = await search(ws, Q, '--deep');
  assert.deepEqual(ids(future), want);
  assert.match(
    future.stderr,
    /^warning: warm index unusable \(.*another index version \(memfold-index\/99[^)]*\)\): searched the files in memory \(slower\); run "mem index" to rebuild it$/m,
  );
  await index(ws);
  assert.doesNotMatch(
    (await search(ws, Q, '--deep')).stderr,
    /unusable/,
    'mem index replaced the future-version index',
  );

  for (const [ext, damage] of [
    ['.dict', (f: string) => truncateSync(f, 10)],
    ['.docs', (f: string) => truncateSync(f, 0)],
    ['.post', (f: string) => rmSync(f)],
  ] as const) {
    const file = warmFile(ws, ext);
    damage(file);
    const r = await search(ws, Q, '--deep');
    assert.deepEqual(ids(r), want, `${ext}: same results`);
    assert.match(
      r.stderr,
      /^warning: warm index unusable \([^\n]*(truncated|missing)\): searched the files in memory/m,
      `${ext}: says so`,
    );
    await index(ws, '--rebuild');
  }
});

test('a damaged manifest line: unread while no file changed, then search answers from the files and mem index rebuilds', async (t) => {
  const ws = searchWorkspace(t);
  await index(ws);
  const want = ids(await search(ws, Q, '--deep'));
  const meta = join(ws, '.mem', 'index', 'warm.json');
  truncateSync(meta, statSync(meta).size - 20); // the manifest (its last bucket's line) cut short
  const unchanged = await search(ws, Q, '--deep');
  assert.deepEqual(ids(unchanged), want, 'the fingerprint matches: the head and segments answer');
  assert.doesNotMatch(unchanged.stderr, /unusable/);
  appendFileSync(
    join(ws, 'memory', '2026-11-21.md'),
    '\n## Note: okapi sighting\n- id: NOTE-20261121-okapi\n- status: active\n',
  );
  const changed = await search(ws, 'okapi');
  assert.equal(changed.results[0]?.id, 'NOTE-20261121-okapi');
  assert.match(changed.stderr, /warm index unusable \(\.mem\/index\/warm\.json manifest is cut short/);
  const r = await index(ws);
  assert.match(r.warnings.join('\n'), /manifest is cut short[^\n]*: rebuilt the warm index/);
  assert.doesNotMatch((await search(ws, 'okapi')).stderr, /unusable/);
});

test('mem index after a damaged segment repairs it, as the warning promises', async (t) => {
  const ws = searchWorkspace(t);
  await index(ws);
  const want = ids(await search(ws, Q, '--deep'));
  // Torn postings (3 bytes), postings cut to whole pairs (only the sizes in the tier file show it),
  // and a .docs cut short in an index whose tier file predates those sizes.
  const damages: [string, (f: string) => void][] = [
    ['.post', (f) => truncateSync(f, 3)],
    ['.post', (f) => truncateSync(f, 8)],
    [
      '.docs',
      (f) => {
        const { head } = readTier(ws, 'warm');
        for (const s of head.segments) delete s.bytes;
        writeTierHead(ws, 'warm', head);
        truncateSync(f, 100);
      },
    ],
  ];
  for (const [ext, damage] of damages) {
    damage(warmFile(ws, ext));
    if (ext === '.post' && damage === damages[0]![1])
      assert.match((await search(ws, Q)).stderr, /run "mem index" to rebuild it/);
    const r = await index(ws);
    assert.equal(r.tiers.warm!.rebuilt, 'corrupt', `${ext}: the warm tier was rebuilt`);
    assert.match(r.warnings.join('\n'), new RegExp(`warm-[^ ]*\\${ext} is truncated[^\n]*: rebuilt the warm index`));
    assert.equal(r.tiers.cold!.rebuilt, null, 'the cold tier was left alone');
    const after = await search(ws, Q, '--deep');
    assert.doesNotMatch(after.stderr, /unusable/);
    assert.deepEqual(ids(after), want);
    const again = await index(ws);
    assert.deepEqual(
      ['changed', 'added', 'rebuilt'].map((k) => again.tiers.warm![k]),
      [0, 0, null],
      `${ext}: then a no-change index again`,
    );
  }
});

test('a segment truncated after the query read it: the successor lookup falls back to the files, same answer', async (t) => {
  const ws = searchWorkspace(t);
  await index(ws);
  const req = {
    workspace: ws,
    query: Q,
    k: 6,
    deep: true,
    filters: {},
    today: '2026-11-22',
    extraPaths: ['second-brain/summaries'],
    search: { chunkTokens: 400, overlapTokens: 80 },
  };
  const want = await runSearch(req);
  const superseded = want.response.results.filter((r) => r.status === 'superseded');
  assert.ok(
    superseded.length && superseded.every((r) => r.supersededBy),
    'the query lists a superseded entry with its successor',
  );
  // The vector ranker runs after the lexical read and before the successor lookup: truncate there.
  let truncated = false;
  const got = await runSearch({
    ...req,
    vectors: async () => ((truncated = true), truncateSync(warmFile(ws, '.post'), 5), null),
  });
  assert.ok(truncated);
  assert.deepEqual(got.response, want.response);
  assert.ok(
    got.notices.some((n) => /^warm index unusable \(.*\.post: truncated\): searched the files in memory/.test(n)),
    got.notices.join('\n'),
  );
});

test('the index deleted, rebuilt and damaged while searches run: every search answers the same', async (t) => {
  const ws = searchWorkspace(t);
  await index(ws);
  const want = ids(await search(ws, Q, '--deep'));
  const rounds = Number(process.env.MEM_STRESS_SEARCH_ROUNDS ?? 2);
  let stop = false;
  let damaged = 0;
  // One process keeps pulling the index out from under the searches: delete it, rebuild it, truncate a segment.
  const vandal = (async () => {
    for (let i = 0; !stop; i++) {
      try {
        if (i % 3 === 0) rmSync(join(ws, '.mem', 'index'), { recursive: true, force: true });
        else if (i % 3 === 1) await mem(['-C', ws, 'index']);
        else truncateSync(warmFile(ws, '.post'), 5);
        damaged++;
      } catch {
        // The index may be half-made by the rebuild just now: try the next kind of damage.
      }
      await new Promise((r) => setTimeout(r, 15));
    }
  })();
  const warnings = new Set<string>();
  try {
    for (let round = 0; round < rounds; round++) {
      const runs = await Promise.all(
        [0, 1, 2].map(() => mem(['-C', ws, '--json', '--now', NOW, 'search', Q, '--deep'])),
      );
      for (const r of runs) {
        assert.equal(r.code, 0, r.stderr);
        assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
        assert.deepEqual(ids(JSON.parse(r.stdout)), want, r.stderr);
        for (const line of r.stderr.split('\n').filter(Boolean)) warnings.add(line.replace(/\(.*\)/, '(…)'));
      }
    }
  } finally {
    stop = true;
    await vandal;
  }
  t.diagnostic(
    `${rounds * 3} searches against ${damaged} deletions, rebuilds and truncations; warnings seen: ${[...warnings].join(' | ') || 'none'}`,
  );
});
