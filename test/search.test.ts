/** `mem search` and `mem index` through the built CLI on a copy of test/fixtures/search/basic. */
import assert from 'node:assert/strict';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { loadConfig } from '../src/config/load.js';
import { manifestStamp } from '../src/search/index/files-stamp.js';
import { bucketStamps } from '../src/search/index/manifest.js';
import { runIndex, runSearch } from '../src/search/index.js';
import { mem } from './helpers/cli.js';
import { fingerprint, ids, index, NOW, ok, readTier, search, searchWorkspace, total } from './search-helpers.js';

const REDIS = 'DECISION-20261120-放弃-redis-缓存';
const PG = 'DECISION-20261121-move-event-store-to-postgresql';
const K8S = 'NOTE-20261121-部署流程-uses-kubernetes';
const POOL = 'DECISION-20261002-資料庫連線池大小設為二十';

// The tests are independent (a workspace each), so they run side by side.
describe('mem search / mem index', { concurrency: 3 }, () => {
  test('Chinese, English, mixed and Traditional↔Simplified queries find their entries', async (t) => {
    // In-process on real files (the CLI path is covered below): eight queries cost no process start-ups.
    const ws = searchWorkspace(t);
    const loaded = loadConfig(ws);
    await runIndex(ws, loaded);
    const cases: [string, boolean, string][] = [
      // A two-character word in the middle of a sentence ("而且命中率很低").
      ['命中', false, REDIS],
      ['concurrent writers', false, PG],
      // Mixed text, both ways.
      ['Kubernetes', false, K8S],
      ['部署流程', false, K8S],
      ['Helm 回滚', false, K8S],
      // Traditional query → Simplified text, and Simplified query → Traditional text (cold tier).
      ['為什麼放棄 Redis 緩存', false, REDIS],
      ['压力测试 连线池', true, POOL],
      // Regional vocabulary through the phrase tables: 資料庫 (Taiwan) is found by 数据库.
      ['数据库', true, POOL],
      // Stems (the first five letters of a longer word): postgres → PostgreSQL, rollbacks → rollback.
      ['postgres', false, PG],
      ['rollbacks', false, 'RULE-20261121-every-migration-needs-a-rollback-script'],
    ];
    const got = [];
    for (const [query, deep] of cases) {
      const { response } = await runSearch({
        workspace: ws,
        query,
        k: 6,
        deep,
        filters: {},
        today: '2026-11-22',
        extraPaths: loaded.config.extraPaths,
        search: loaded.config.search,
      });
      got.push(response.results[0]?.id);
    }
    assert.deepEqual(
      got,
      cases.map(([, , want]) => want),
    );
  });

  test('a query of one Chinese character finds it inside words, Traditional too; a lone kana that finds nothing says why and what to search instead', async (t) => {
    const ws = searchWorkspace(t);
    const loaded = loadConfig(ws);
    await runIndex(ws, loaded);
    const ask = (query: string, filters = {}) =>
      runSearch({
        workspace: ws,
        query,
        k: 6,
        deep: true,
        filters,
        today: '2026-11-22',
        extraPaths: loaded.config.extraPaths,
        search: loaded.config.search,
      });
    // 缓 stands inside 缓存 only: found through the index's Han unigrams, highlighted in the snippet's line.
    for (const query of ['缓', '緩']) {
      const { response, notices } = await ask(query);
      assert.equal(response.results[0]?.id, REDIS, query);
      assert.match(response.results[0]!.snippet, /缓/, query);
      assert.ok(!notices.some((n) => n.includes('single')), notices.join('\n'));
    }
    const { highlight } = await import('../src/search/run/present.js');
    const { markWords } = await import('../src/search/query/assemble.js');
    assert.equal(
      highlight('我们决定放弃 Redis 缓存', markWords('缓 redis'), (m) => `[${m}]`),
      '我们决定放弃 [Redis] [缓]存',
      'a Chinese character is highlighted on a terminal',
    );
    assert.equal(
      highlight('a b', markWords('a'), (m) => `[${m}]`),
      'a b',
      'a Latin letter is not',
    );
    assert.equal(
      highlight('我们决定放弃 Redis 缓存', markWords('為何 緩存 放棄'), (m) => `[${m}]`),
      '我们决定[放弃] Redis [缓存]',
      'Traditional words are marked in Simplified text',
    );
    assert.equal(
      highlight('資料庫用快取', markWords('快取'), (m) => `[${m}]`),
      '資料庫用[快取]',
      'as typed, too',
    );
    // A query's longer run asks for pairs, not single characters: 缓慢 (slow) does not find 缓存.
    assert.deepEqual((await ask('缓慢')).response.results, []);
    // A lone kana is still found only where it stands alone; the notice quotes it as typed.
    const kana = await ask('ラ');
    assert.deepEqual(kana.response.results, []);
    assert.ok(
      kana.notices.some((n) =>
        n.startsWith('"ラ": a single kana or Hangul character is found only where it stands alone'),
      ),
      kana.notices.join('\n'),
    );
    // With a filter, the filter may be what left nothing: no such advice.
    const { notices } = await ask('ラ', { kind: 'decision' });
    assert.ok(!notices.some((n) => n.includes('single kana')), notices.join('\n'));
  });

  test('the exact word ranks above matches by its stem alone, whether the word is longer than the stem or as long', async (t) => {
    const ws = searchWorkspace(t);
    const note = (slug: string, title: string, conclusion: string) =>
      `## Note: ${title}\n- id: NOTE-20261120-${slug}\n- date: 2026-11-20\n- conclusion: ${conclusion}\n- status: active\n\n`;
    writeFileSync(
      join(ws, 'memory', '2026-11-20.md'),
      '# 2026-11-20\n\n' +
        note('billing-emails', 'Billing emails', 'Send the monthly statement on the first business day') +
        note('state-machine-states', 'State machine states', 'The state machine keeps states in stateful actors') +
        note('retry-policy', 'Retry policy', 'Keep the state small in the retry worker') +
        note('quarterly-report', 'Quarterly report', 'The statement of work was signed by finance'),
    );
    const loaded = loadConfig(ws);
    await runIndex(ws, loaded);
    const top = async (query: string, n: number) => {
      const { response } = await runSearch({
        workspace: ws,
        query,
        k: 6,
        deep: false,
        filters: {},
        today: '2026-11-22',
        extraPaths: loaded.config.extraPaths,
        search: loaded.config.search,
      });
      return new Set(response.results.slice(0, n).map((r) => r.heading));
    };
    assert.deepEqual(await top('statement', 2), new Set(['Note: Billing emails', 'Note: Quarterly report']));
    assert.deepEqual(await top('state', 2), new Set(['Note: State machine states', 'Note: Retry policy']));
  });

  test('--json has the documented shape; superseded entries name their successor and rank below it', async (t) => {
    const ws = searchWorkspace(t);
    await index(ws);
    const res = await search(ws, 'SQLite events', '--deep');
    assert.deepEqual(
      Object.keys(res)
        .filter((k) => k !== 'stderr')
        .sort(),
      ['indexBehind', 'query', 'results', 'tier'],
    );
    assert.equal(res.tier, 'cold');
    const pg = res.results.find((r) => r.id === PG)!;
    assert.deepEqual(
      Object.keys(pg).sort(),
      [
        'date',
        'endLine',
        'heading',
        'id',
        'kind',
        'path',
        'score',
        'scores',
        'snippet',
        'source',
        'startLine',
        'status',
        'supersededBy',
        'text',
        'tier',
      ].sort(),
    );
    assert.deepEqual(
      [pg.path, pg.startLine, pg.endLine, pg.heading, pg.kind, pg.status, pg.date, pg.tier],
      [
        'memory/2026-11-21.md',
        3,
        15,
        'Decision: Move the event store to PostgreSQL',
        'Decision',
        'active',
        '2026-11-21',
        'warm',
      ],
    );
    assert.deepEqual(pg.source, {
      session_id: '7f3c2a10',
      session_path: '~/.claude/projects/shop/7f3c2a10.jsonl',
      message_range: '12-18',
    });
    assert.ok(pg.text.startsWith('## Decision: Move the event store'));
    assert.equal(typeof pg.scores.lexical, 'number');
    assert.equal(pg.scores.vector, null);
    const old = res.results.find((r) => r.id === 'DECISION-20261002-use-sqlite-for-events')!;
    assert.equal(old.status, 'superseded');
    assert.equal(old.supersededBy, PG);
    assert.equal(old.tier, 'cold');
    assert.ok(res.results.indexOf(old) > res.results.indexOf(pg));
    const human = await ok(['-C', ws, '--now', NOW, 'search', 'SQLite', '--deep']);
    assert.match(human.stdout, /memory\/archive\/2026-10-02\.md:3-7 .*superseded by DECISION-20261121/s);
    // Filters narrow the same query.
    assert.deepEqual(ids(await search(ws, 'SQLite', '--deep', '--status', 'superseded')), [
      'DECISION-20261002-use-sqlite-for-events',
    ]);
    assert.deepEqual(ids(await search(ws, 'SQLite', '--deep', '--until', '2026-10-31')), [
      'DECISION-20261002-use-sqlite-for-events',
    ]);
    assert.deepEqual(ids(await search(ws, 'SQLite', '--deep', '--path', 'memory/2026-*.md', '-k', '1')), [PG]);
  });

  test('warm first: the cold tier is searched only when warm has too few hits or with --deep', async (t) => {
    const ws = searchWorkspace(t);
    await index(ws);
    const warm = await search(ws, 'rollback', '-k', '2');
    assert.equal(warm.tier, 'warm');
    assert.ok(warm.results.every((r) => r.tier === 'warm'));
    const cold = await search(ws, 'flamingo dashboard');
    assert.equal(cold.tier, 'cold');
    assert.equal(cold.results[0]!.path, 'second-brain/summaries/2026-11-21-wrapup.md');
    assert.equal(cold.results[0]!.heading, 'What happened');
  });

  test('bad input: empty query exits 2, punctuation and no hits exit 0, a 100 KB query answers', async (t) => {
    const ws = searchWorkspace(t);
    await index(ws);
    for (const q of ['', '   ']) {
      const r = await mem(['-C', ws, 'search', q]);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /query is empty/);
    }
    const bad = await mem(['-C', ws, 'search', 'x', '-k', '0']);
    assert.equal(bad.code, 2);
    const punct = await search(ws, '?!… ——');
    assert.deepEqual(punct.results, []);
    assert.match(punct.stderr, /no searchable words/);
    assert.deepEqual((await search(ws, 'zzyzx-unmatched')).results, []);
    let huge = 'rollback';
    for (let i = 0; huge.length < 100_500; i++) huge += i % 7 ? ` filler${i}` : ' rollback';
    const r = await search(ws, huge);
    assert.equal(r.results[0]!.id, 'RULE-20261121-every-migration-needs-a-rollback-script');
  });

  test('binary, invalid UTF-8 and oversized Markdown files: clear warnings, no crash', async (t) => {
    const ws = searchWorkspace(t);
    writeFileSync(join(ws, 'memory', 'blob.md'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1, 2, 3]));
    writeFileSync(
      join(ws, 'memory', 'latin1.md'),
      Buffer.concat([Buffer.from('## Note: caf'), Buffer.from([0xe9]), Buffer.from(' gazpacho recipe\n')]),
    );
    writeFileSync(join(ws, 'memory', 'huge.md'), Buffer.alloc(50 * 1024 * 1024, 'lorem ipsum dolor\n'));
    const r = await index(ws);
    assert.match(r.stderr, /memory\/blob\.md: looks binary/);
    assert.match(r.stderr, /memory\/latin1\.md: invalid UTF-8/);
    assert.match(r.stderr, /memory\/huge\.md: 50\.0 MB is over the 8 MB limit; not indexed/);
    assert.equal(total(r, 'skipped'), 2);
    assert.equal(ids(await search(ws, 'gazpacho'))[0], 'memory/latin1.md:1');
    assert.deepEqual((await search(ws, 'lorem')).results, []);
  });

  test('mem index updates exactly the affected chunks: edit, add, rename, delete, no change', async (t) => {
    const ws = searchWorkspace(t);
    // The tier file's fingerprint is its manifest's (a search that finds the same one skips the manifest).
    const stamped = async (...flags: string[]) => {
      const r = await index(ws, ...flags);
      for (const tier of ['warm', 'cold'] as const) {
        const { head, files } = readTier(ws, tier);
        assert.equal(head.stamp, manifestStamp(files), `${tier} after mem index ${flags.join(' ')}`);
        // And each bucket's, for the files of its line.
        const listed = Object.keys(files)
          .sort()
          .map((path) => ({ path, ...files[path] }));
        assert.deepEqual(
          head.buckets,
          bucketStamps(listed).stamps,
          `${tier} buckets after mem index ${flags.join(' ')}`,
        );
      }
      return r;
    };
    const first = await stamped();
    assert.deepEqual([total(first, 'added'), total(first, 'chunksAdded')], [5, total(first, 'chunks')]);
    const again = await index(ws);
    assert.deepEqual(
      ['changed', 'added', 'removed', 'chunksAdded', 'chunksRemoved'].map((k) => total(again, k)),
      [0, 0, 0, 0, 0],
    );

    appendFileSync(
      join(ws, 'memory', '2026-11-20.md'),
      '\n## Note: 新的笔记 about tapioca\n- id: NOTE-20261120-tapioca\n- status: active\n',
    );
    const edit = await stamped();
    // The file had 3 chunks (title line, two entries); now 4: the new entry's is added, the others kept.
    assert.deepEqual(
      ['changed', 'added', 'removed', 'chunksRemoved', 'chunksKept', 'chunksAdded'].map((k) => total(edit, k)),
      [1, 0, 0, 0, 3, 1],
    );
    assert.equal(ids(await search(ws, 'tapioca'))[0], 'NOTE-20261120-tapioca');

    mkdirSync(join(ws, 'memory', 'projects'), { recursive: true });
    writeFileSync(
      join(ws, 'memory', 'projects', 'shop.md'),
      '# Shop\n\n## Payments\nStripe webhooks retry for three days.\n',
    );
    const add = await stamped();
    assert.deepEqual(
      ['changed', 'added', 'chunksRemoved', 'chunksAdded'].map((k) => total(add, k)),
      [0, 1, 0, 2],
    );

    renameSync(join(ws, 'memory', 'projects', 'shop.md'), join(ws, 'memory', 'projects', 'store.md'));
    const rename = await stamped();
    assert.deepEqual(
      ['removed', 'added', 'chunksRemoved', 'chunksAdded'].map((k) => total(rename, k)),
      [1, 1, 2, 2],
    );
    assert.equal((await search(ws, 'stripe webhooks')).results[0]!.path, 'memory/projects/store.md');

    rmSync(join(ws, 'memory', 'projects', 'store.md'));
    const del = await stamped();
    assert.deepEqual(
      ['removed', 'added', 'chunksRemoved', 'chunksAdded'].map((k) => total(del, k)),
      [1, 0, 2, 0],
    );
    assert.deepEqual((await search(ws, 'stripe webhooks')).results, []);
    const rebuilt = await stamped('--rebuild');
    assert.equal(total(rebuilt, 'chunks'), total(del, 'chunks'));
  });

  test('search writes nothing and overlays files changed since the last index', async (t) => {
    const ws = searchWorkspace(t);
    await index(ws);
    appendFileSync(
      join(ws, 'memory', '2026-11-21.md'),
      '\n## Note: quokka sighting\n- id: NOTE-20261121-quokka\n- status: active\n',
    );
    rmSync(join(ws, 'second-brain', 'summaries', '2026-11-21-wrapup.md'));
    const before = fingerprint(ws);
    const res = await search(ws, 'quokka');
    assert.equal(res.indexBehind, true);
    assert.match(res.stderr, /behind by 1 file/);
    assert.equal(res.results[0]!.id, 'NOTE-20261121-quokka');
    assert.deepEqual((await search(ws, 'flamingo', '--deep')).results, [], 'a removed file is hidden');
    assert.deepEqual(fingerprint(ws), before);
  });

  test('the file-list fingerprint: a rename or a same-size edit is seen, a touch is not a change, and a no-change index writes nothing', async (t) => {
    const ws = searchWorkspace(t);
    await index(ws);
    const tierFile = join(ws, '.mem', 'index', 'warm.json');
    assert.equal(readTier(ws, 'warm').head.stamp.length, 40, "the head records the manifest's fingerprint");
    const stampBefore = statSync(tierFile).mtimeMs;
    await index(ws);
    assert.equal(statSync(tierFile).mtimeMs, stampBefore, 'no change: the tier file is not rewritten');

    // A rename keeps size and mtime: only the path list tells.
    renameSync(join(ws, 'memory', '2026-11-20.md'), join(ws, 'memory', '2026-11-19.md'));
    const renamed = await search(ws, 'Redis 缓存');
    assert.equal(renamed.indexBehind, true);
    assert.ok(renamed.results.some((r) => r.path === 'memory/2026-11-19.md'));
    assert.ok(!renamed.results.some((r) => r.path === 'memory/2026-11-20.md'));

    // Same size, other words, an mtime a fraction of a millisecond later.
    const file = join(ws, 'memory', '2026-11-21.md');
    const text = readFileSync(file, 'utf8');
    const word = text.match(/\b[a-z]{6,}\b/)![0];
    const mtime = statSync(file).mtimeMs;
    writeFileSync(file, text.replace(word, 'x'.repeat(word.length)));
    utimesSync(file, new Date(), (mtime + 0.25) / 1000);
    const edited = await search(ws, 'x'.repeat(word.length));
    assert.equal(edited.indexBehind, true);
    assert.equal(edited.results[0]?.path, 'memory/2026-11-21.md');

    await index(ws);
    // A touch changes the mtime alone: search reads the file, finds the same text, and is not behind;
    // the next index records the new mtime, and the one after finds nothing to do.
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    assert.equal((await search(ws, 'SQLite events')).indexBehind, false);
    const touched = await index(ws);
    assert.equal(total(touched, 'changed'), 0);
    const written = statSync(tierFile).mtimeMs;
    await index(ws);
    assert.equal(statSync(tierFile).mtimeMs, written);
  });

  test('deleting .mem/ gives the same results; a corrupt or other-version index is survived and rebuilt', async (t) => {
    const ws = searchWorkspace(t);
    await index(ws);
    const queries = ['SQLite', '為什麼放棄 Redis 緩存 rollback'];
    const strip = (r: Awaited<ReturnType<typeof search>>) => JSON.stringify(r.results);
    const want = await Promise.all(queries.map((q) => search(ws, q, '--deep').then(strip)));
    rmSync(join(ws, '.mem'), { recursive: true });
    const fallback = await search(ws, queries[0]!, '--deep');
    assert.match(fallback.stderr, /no warm index yet: searched the files in memory \(slower\); run "mem index"/);
    assert.equal(existsSync(join(ws, '.mem')), false, 'search never creates .mem/');
    assert.deepEqual(await Promise.all(queries.map((q) => search(ws, q, '--deep').then(strip))), want);
    await index(ws);
    assert.deepEqual(await Promise.all(queries.map((q) => search(ws, q, '--deep').then(strip))), want);

    writeFileSync(join(ws, '.mem', 'index', 'warm.json'), '{"version": "memfold-index/0"}');
    const other = await search(ws, 'SQLite', '--deep');
    assert.match(other.stderr, /warm index unusable .*another index version.*run "mem index" to rebuild it/);
    assert.equal(strip(other), want[0]);
    writeFileSync(join(ws, '.mem', 'index', 'warm.json'), '{ not json');
    assert.equal(strip(await search(ws, 'SQLite', '--deep')), want[0]);
    const fixed = await index(ws);
    assert.match(fixed.stderr, /not valid JSON.*rebuilt the warm index/);
    assert.equal(fixed.tiers.warm!.rebuilt, 'corrupt');
    assert.doesNotMatch((await search(ws, 'SQLite')).stderr, /unusable/);

    // A truncated postings file: search still answers (from memory), index rebuilds the tier.
    const post = readdirSync(join(ws, '.mem', 'index')).find((n) => n.startsWith('warm-') && n.endsWith('.post'))!;
    writeFileSync(join(ws, '.mem', 'index', post), Buffer.alloc(3));
    assert.equal(strip(await search(ws, 'SQLite', '--deep')), want[0]);
    // mem index checks the segments' sizes and rebuilds the damaged tier (hardening-search.test.ts has the cases).
    const again = await index(ws);
    assert.equal(again.tiers.warm!.rebuilt, 'corrupt');
    assert.doesNotMatch((await search(ws, 'SQLite')).stderr, /unusable/);
  });
});

test('labelled query set (test/fixtures/search/quality): lexical recall@5 ≥ 0.85, a third of the queries Chinese', async (t) => {
  const { cpSync, readFileSync } = await import('node:fs');
  const { tempDir } = await import('./helpers/cli.js');
  const dir = join(import.meta.dirname, 'fixtures', 'search', 'quality');
  const ws = join(tempDir(t, 'memfold-quality-'), 'ws');
  cpSync(join(dir, 'workspace'), ws, { recursive: true });
  const loaded = loadConfig(ws);
  await runIndex(ws, loaded);
  const labelled = JSON.parse(readFileSync(join(dir, 'queries.json'), 'utf8')) as { q: string; id: string }[];
  assert.ok(labelled.length >= 60);
  assert.ok(labelled.filter((x) => /\p{Script=Han}/u.test(x.q)).length * 3 >= labelled.length);
  let hits = 0;
  for (const { q, id } of labelled) {
    const { response } = await runSearch({
      workspace: ws,
      query: q,
      k: 5,
      deep: true,
      filters: {},
      today: '2026-11-22',
      extraPaths: loaded.config.extraPaths,
      search: loaded.config.search,
    });
    if (response.results.some((r) => r.id === id)) hits++;
  }
  assert.ok(hits / labelled.length >= 0.85, `recall@5 ${hits}/${labelled.length}`);
});

test('updateIndexAfterWrite updates incrementally and never throws; extra paths outside the workspace give absolute paths', async (t) => {
  const { updateIndexAfterWrite } = await import('../src/search/index.js');
  const { editConfig, tempDir } = await import('./helpers/cli.js');
  const root = tempDir(t, 'memfold-after-write-');
  const ws = searchWorkspace(t);
  mkdirSync(join(root, 'notes'));
  writeFileSync(join(root, 'notes', 'design.md'), '# Design\n\nThe okapi service shards by tenant.\n');
  editConfig(ws, (cfg) => {
    cfg.extraPaths = ['second-brain/summaries', join(root, 'notes')];
  });
  const first = await updateIndexAfterWrite(ws, loadConfig(ws));
  assert.equal(first.warning, undefined);
  appendFileSync(join(ws, 'memory', '2026-11-21.md'), '\n## Note: narwhal\n- id: NOTE-20261121-narwhal\n');
  const after = await updateIndexAfterWrite(ws, loadConfig(ws));
  const warm = after.run!.result.tiers.warm;
  assert.deepEqual([warm.changed, warm.chunksRemoved, warm.chunksKept, warm.chunksAdded], [1, 0, 4, 1]);
  const loaded = loadConfig(ws);
  const ask = (query: string) =>
    runSearch({
      workspace: ws,
      query,
      k: 3,
      deep: true,
      filters: {},
      today: '2026-11-22',
      extraPaths: loaded.config.extraPaths,
      search: loaded.config.search,
    });
  const narwhal = await ask('narwhal');
  assert.equal(narwhal.response.indexBehind, false);
  assert.equal(narwhal.response.results[0]!.id, 'NOTE-20261121-narwhal');
  assert.equal((await ask('okapi tenant')).response.results[0]!.path, join(root, 'notes', 'design.md'));
  // A workspace whose .mem/ cannot be written: a warning, not an exception.
  rmSync(join(ws, '.mem'), { recursive: true });
  writeFileSync(join(ws, '.mem'), 'not a folder');
  const failed = await updateIndexAfterWrite(ws, loadConfig(ws));
  assert.match(failed.warning ?? '', /index not updated .*run "mem index"/);
});

test('a query term past the 2,000 characters a result stores picks the snippet line from the whole section', async (t) => {
  const ws = searchWorkspace(t);
  mkdirSync(join(ws, 'memory', 'projects'));
  // One paragraph written as a single 3,000-character line: its chunk's stored text is cut at 2,000.
  const words = Array.from({ length: 420 }, (_, i) => `filler${i}`).join(' ');
  writeFileSync(
    join(ws, 'memory', 'projects', 'long-notes.md'),
    `# Long notes\n\n${words} and the wombat ledger closes at midnight ${words.slice(0, 200)}\n`,
  );
  await index(ws);
  const res = await search(ws, 'wombat ledger');
  const hit = res.results.find((r) => r.path === 'memory/projects/long-notes.md')!;
  assert.ok(hit, JSON.stringify(res.results.map((r) => r.path)));
  assert.ok(
    (hit.text as string).length <= 2000 && !(hit.text as string).includes('wombat'),
    'the stored text is cut before the term',
  );
  assert.match(hit.snippet as string, /the wombat ledger closes at midnight/);
  assert.ok((hit.snippet as string).length <= 240);
});

test("a cut result's whole text is read once: the reader handed to runSearch answers again from what it read (MCP redacts from it)", async (t) => {
  const { wholeTextReader } = await import('../src/search/query/whole-text.js');
  const ws = searchWorkspace(t);
  mkdirSync(join(ws, 'memory', 'projects'));
  const words = Array.from({ length: 420 }, (_, i) => `filler${i}`).join(' ');
  const file = join(ws, 'memory', 'projects', 'long-notes.md');
  writeFileSync(file, `# Long notes\n\n${words} and the wombat ledger closes at midnight ${words.slice(0, 200)}\n`);
  const loaded = loadConfig(ws);
  await runIndex(ws, loaded);
  const reads: string[] = [];
  const reader = wholeTextReader(ws);
  const wholeText = (r: Parameters<typeof reader>[0]) => {
    reads.push(r.path);
    return reader(r);
  };
  const { response } = await runSearch({
    workspace: ws,
    query: 'wombat ledger',
    k: 3,
    deep: false,
    filters: {},
    today: NOW.slice(0, 10),
    extraPaths: loaded.config.extraPaths,
    search: loaded.config.search,
    wholeText,
  });
  const hit = response.results.find((r) => r.path === 'memory/projects/long-notes.md')!;
  assert.match(hit.snippet, /the wombat ledger closes at midnight/);
  assert.ok(reads.includes(hit.path), 'runSearch took its snippet through the reader it was given');
  // The file is gone now: the reader still has the whole text it read for the search.
  rmSync(file);
  assert.match(reader(hit) ?? '', /wombat ledger closes at midnight/);
  assert.equal(wholeTextReader(ws)(hit), null, 'a fresh reader finds no file');
});

test("after an edit, an incremental `mem index` ranks like a rebuilt one: the edited file's old chunks count nowhere, not even in the term statistics", async (t) => {
  const ws = searchWorkspace(t);
  const loaded = loadConfig(ws);
  await runIndex(ws, loaded);
  // The file's old chunks, which hold the query's words, stay in their segment as dead docs.
  const file = join(ws, 'memory', '2026-11-21.md');
  writeFileSync(
    file,
    readFileSync(file, 'utf8').replace(/PostgreSQL/g, 'Postgres') +
      '\n## Note: postgres events\n- id: NOTE-20261121-postgres-events\n- why: the event store moves to postgres\n',
  );
  const ranked = async () => {
    const { response } = await runSearch({
      workspace: ws,
      query: 'postgres event store',
      k: 10,
      deep: true,
      filters: {},
      today: '2026-11-22',
      extraPaths: loaded.config.extraPaths,
      search: loaded.config.search,
    });
    return response.results.map((r) => `${r.path}:${r.startLine} ${r.scores.lexical}`).sort();
  };
  await runIndex(ws, loaded);
  assert.ok(readTier(ws, 'warm').head.dead.length, 'the incremental update left dead docs');
  const incremental = await ranked();
  await runIndex(ws, loaded, { rebuild: true });
  assert.equal(readTier(ws, 'warm').head.dead.length, 0);
  assert.deepEqual(incremental, await ranked());
});

test('an edit keeps the unchanged chunks of the file; the docs it drops stay dropped, even where its docs run on into a later segment', async (t) => {
  const ws = searchWorkspace(t);
  // memory/2026-11-21.md is the warm tier's last file: its docs end the first segment, and the
  // entry appended below starts the next one, right after them.
  const file = join(ws, 'memory', '2026-11-21.md');
  const original = readFileSync(file, 'utf8');
  await index(ws);
  const chunksBefore = readTier(ws, 'warm').files['memory/2026-11-21.md'].count;
  appendFileSync(
    file,
    '\n## Note: the kiwi importer\n- id: NOTE-20261121-kiwi-importer\n- why: kiwi feeds arrive hourly\n',
  );
  const append = await index(ws);
  assert.deepEqual(
    ['changed', 'chunksKept', 'chunksRemoved', 'chunksAdded'].map((k) => total(append, k)),
    [1, chunksBefore, 0, 1],
  );
  assert.match((await ok(['-C', ws, 'index'])).stdout, /chunks \+0 -0 \(/, 'no change: nothing kept, added or removed');
  assert.equal(ids(await search(ws, 'kiwi importer'))[0], 'NOTE-20261121-kiwi-importer');
  // A line added at the top moves every chunk: none is kept, and all the old docs die. With the
  // other warm files gone too, no doc of the first segment is left: it is dropped, and the
  // dead docs of this file in the next segment must stay dead all the same.
  writeFileSync(file, `<!-- moved -->\n${original}`);
  rmSync(join(ws, 'MEMORY.md'));
  rmSync(join(ws, 'memory', '2026-11-20.md'));
  const moved = await index(ws);
  const chunksAfter = readTier(ws, 'warm').files['memory/2026-11-21.md'].count;
  assert.deepEqual(
    ['chunksKept', 'chunksAdded'].map((k) => total(moved, k)),
    [0, chunksAfter],
  );
  assert.deepEqual((await search(ws, 'kiwi importer')).results, [], 'the dropped entry is not found again');
  const head = readTier(ws, 'warm').head;
  assert.equal(
    head.deadCount,
    (head.dead as [number, number][]).reduce((n, [, count]) => n + count, 0),
  );
  const rebuilt = await index(ws, '--rebuild');
  assert.equal(total(rebuilt, 'chunks'), total(moved, 'chunks'));
});

test('small segments stay few: a file appended to again and again keeps two segments, and edits of many files merge theirs instead of rebuilding', async (t) => {
  const { TAIL_MERGE } = await import('../src/search/index/index-rules.js');
  const ws = searchWorkspace(t);
  const many = (i: number) => join(ws, 'memory', `many-${String(i).padStart(2, '0')}.md`);
  for (let i = 0; i < 3 * TAIL_MERGE + 2; i++)
    writeFileSync(
      many(i),
      `# Many ${i}\n\n## Note: topic ${i}\n- id: NOTE-20261010-topic-${i}\n- why: file ${i} of the many\n`,
    );
  await index(ws);
  const segments = () => readTier(ws, 'warm').head.segments as { count: number; tail?: true; merged?: true }[];
  // The same file, again and again (microsync's daily file): its new chunks move to the newest segment.
  const daily = join(ws, 'memory', '2026-11-21.md');
  for (let i = 0; i < 14; i++) {
    appendFileSync(daily, `\n## Note: append ${i}\n- id: NOTE-20261121-append-${i}\n`);
    const r = await index(ws);
    assert.deepEqual(
      [r.tiers.warm!.compacted, total(r, 'chunksAdded'), segments().length],
      [false, i + 1, 2],
      `append ${i}`,
    );
  }
  assert.equal(ids(await search(ws, 'append 0'))[0], 'NOTE-20261121-append-0');
  // Many files, one edit each: their tail segments add up until TAIL_MERGE, then one update indexes
  // their files again into its own segment (a merge), not the whole tier (a compaction).
  let merged: Awaited<ReturnType<typeof index>> | undefined;
  let tailDocs = 0;
  for (let i = 0; i < TAIL_MERGE + 2 && !merged; i++) {
    tailDocs = segments()
      .filter((s) => s.tail)
      .reduce((n, s) => n + s.count, 0);
    appendFileSync(many(i), `\n## Note: more on ${i}\n- id: NOTE-20261010-more-${i}\n`);
    const r = await index(ws);
    assert.equal(r.tiers.warm!.compacted, false);
    if (total(r, 'merged')) merged = r;
  }
  assert.ok(merged, 'a merge happened');
  // Only the tails' docs move (and the new entry's is added): the merged files keep their other docs.
  assert.equal(total(merged, 'chunksAdded'), tailDocs + 1);
  assert.deepEqual(
    segments().filter((s) => s.tail),
    [],
    'the merge left no tail segment, nor made one',
  );
  // A merged file keeps its docs outside the tails, as any changed file: the next append adds one doc.
  const before = readTier(ws, 'warm').files['memory/2026-11-21.md'].count;
  appendFileSync(daily, '\n## Note: after the merge\n- id: NOTE-20261121-after-merge\n');
  const after = await index(ws);
  assert.deepEqual(
    ['chunksAdded', 'chunksKept', 'merged'].map((k) => total(after, k)),
    [1, before, 0],
  );
  // More rounds of edits to other files: each merge takes in the last one's small segment too, so
  // the tier stays at its rebuilt segment, one merged segment and the tails, never compacted.
  for (let i = TAIL_MERGE + 2; i < 3 * TAIL_MERGE + 2; i++) {
    appendFileSync(many(i), `\n## Note: later on ${i}\n- id: NOTE-20261010-later-${i}\n`);
    const r = await index(ws);
    assert.equal(r.tiers.warm!.compacted, false, `edit ${i}`);
    assert.ok(
      segments().filter((s) => s.merged).length <= 1 && segments().length <= 2 + TAIL_MERGE,
      `edit ${i}: ${JSON.stringify(segments())}`,
    );
  }
  assert.match((await ok(['-C', ws, 'index'])).stdout, /chunks \+0 -0 /);
  const query = async () =>
    (await search(ws, 'more on topic file', '-k', '20')).results
      .map((r) => `${r.path}:${r.startLine} ${r.scores.lexical.toFixed(9)}`)
      .sort();
  const incremental = await query();
  await index(ws, '--rebuild');
  assert.deepEqual(incremental, await query(), 'ranks as a rebuilt index does');
});

test("the manifest is read and written by bucket: an edit reads and rewrites its file's bucket line only; a damaged bucket is found when its files change", async (t) => {
  const { bucketOf, BUCKETS } = await import('../src/search/index/manifest.js');
  const ws = searchWorkspace(t);
  await index(ws);
  const tierPath = join(ws, '.mem', 'index', 'warm.json');
  const edited = 'memory/2026-11-21.md';
  const other = 'memory/2026-11-20.md';
  assert.notEqual(bucketOf(edited), bucketOf(other), 'the two files lie in different buckets');
  const lines = readFileSync(tierPath, 'utf8').split('\n');
  assert.equal(lines.length, BUCKETS + 2);
  // The other file's bucket line damaged in place: an update and a search that never parse it work on.
  const damaged = '{"memory/2026-11-20.md": {"size": 1';
  lines[1 + bucketOf(other)] = damaged;
  writeFileSync(tierPath, lines.join('\n'));
  appendFileSync(
    join(ws, edited),
    '\n## Note: the quokka import\n- id: NOTE-20261121-quokka\n- why: quokka data arrives daily\n',
  );
  const overlaid = await search(ws, 'quokka');
  assert.deepEqual(
    [ids(overlaid)[0], /unusable/.test(overlaid.stderr)],
    ['NOTE-20261121-quokka', false],
    "the search overlay reads the edited file's bucket only",
  );
  const r = await index(ws);
  assert.deepEqual([total(r, 'changed'), r.warnings], [1, []]);
  const after = readFileSync(tierPath, 'utf8').split('\n');
  assert.equal(after[1 + bucketOf(other)], damaged, 'the untouched bucket is written back as it was read');
  assert.notEqual(after[1 + bucketOf(edited)], lines[1 + bucketOf(edited)]);
  assert.equal(ids(await search(ws, 'quokka'))[0], 'NOTE-20261121-quokka');
  // Once a file of that bucket changes: search answers from the files and says so, mem index rebuilds the tier.
  appendFileSync(join(ws, other), '\n## Note: the wombat export\n- id: NOTE-20261120-wombat\n');
  const behind = await search(ws, 'wombat');
  assert.equal(behind.results[0]?.id, 'NOTE-20261120-wombat');
  assert.match(
    behind.stderr,
    new RegExp(`warm index unusable \\(\\.mem/index/warm\\.json: manifest bucket ${bucketOf(other)} is not valid JSON`),
  );
  const repaired = await index(ws);
  assert.match(
    repaired.warnings.join('\n'),
    new RegExp(`manifest bucket ${bucketOf(other)} is not valid JSON.*: rebuilt it`),
  );
  assert.deepEqual(
    [ids(await search(ws, 'wombat'))[0], ids(await search(ws, 'quokka'))[0]],
    ['NOTE-20261120-wombat', 'NOTE-20261121-quokka'],
  );
  // Two bucket lines swapped (each valid JSON): a file in the wrong bucket is damage, not a new file.
  const swapped = readFileSync(tierPath, 'utf8').split('\n');
  const [x, y] = [1 + bucketOf('MEMORY.md'), 1 + bucketOf(other)];
  assert.notEqual(x, y);
  [swapped[x], swapped[y]] = [swapped[y]!, swapped[x]!];
  writeFileSync(tierPath, swapped.join('\n'));
  writeFileSync(join(ws, 'MEMORY.md'), '# Memory\n\n- nothing about rollbacks any more\n');
  const stale = await search(ws, 'rollback script');
  assert.ok(
    !stale.results.some((r) => r.path === 'MEMORY.md' && r.text.includes('Every migration')),
    'the old MEMORY.md text is not served',
  );
  assert.match(stale.stderr, /warm index unusable \(.*manifest bucket \d+ lists/);
  assert.match(
    (await index(ws)).warnings.join('\n'),
    /manifest bucket \d+ lists .*, which belongs in bucket \d+.*: rebuilt it/,
  );
});

test('a tier file replaced between reading its head and its manifest: the manifest answers from the new file, head and files together', async (t) => {
  const { loadTierHead } = await import('../src/search/index/tier-file.js');
  const ws = searchWorkspace(t);
  const loaded = loadConfig(ws);
  await runIndex(ws, loaded);
  const before = loadTierHead(ws, 'warm');
  assert.ok('head' in before);
  // An index run commits a new tier file after the head was read (a search does not lock).
  appendFileSync(
    join(ws, 'memory', '2026-11-21.md'),
    '\n## Note: late\n- id: NOTE-20261121-late\n- why: added after the head was read\n',
  );
  await runIndex(ws, loaded);
  const load = before.manifest();
  assert.ok('state' in load, JSON.stringify(load));
  const { files, ...head } = load.state;
  const now = readTier(ws, 'warm');
  assert.notEqual(before.head.nextId, now.head.nextId, 'the run changed the head');
  assert.deepEqual(head, now.head);
  assert.deepEqual(files.toRecord(), now.files);
});

test("a word in the title and body of nearly every chunk still finds them, with positive scores (the capped term's IDF fix counted pairs, not chunks, and turned negative)", async (t) => {
  const ws = searchWorkspace(t);
  // 3,000 decisions: more than the 5,000 pairs a query reads for one term, from fewer than 5,000 chunks.
  for (let d = 1; d <= 30; d++) {
    const day = `2026-10-${String(d).padStart(2, '0')}`;
    const entries = Array.from(
      { length: 100 },
      (_, i) =>
        `## Decision: decision about topic${d}x${i}\n- id: DECISION-${day.replaceAll('-', '')}-t${i}\n- date: ${day}\n- why: the decision on topic${d}x${i} stands\n- status: active\n`,
    );
    writeFileSync(join(ws, 'memory', `${day}.md`), `# ${day}\n\n${entries.join('\n')}`);
  }
  const loaded = loadConfig(ws);
  await runIndex(ws, loaded);
  const { response } = await runSearch({
    workspace: ws,
    query: 'decision',
    k: 6,
    deep: false,
    filters: {},
    today: '2026-11-22',
    extraPaths: loaded.config.extraPaths,
    search: loaded.config.search,
  });
  assert.equal(response.results.length, 6);
  assert.ok(
    response.results.every((r) => r.scores.lexical! > 0),
    response.results.map((r) => r.scores.lexical).join(' '),
  );
});

test('the engine loads only the docs that can make the top, their IDF carried by field boosts: the same hits, order and scores (to 1e-12) as ranking every doc', async (t) => {
  const { lexicalSearch } = await import('../src/search/query/engine.js');
  const { openTier } = await import('../src/search/index/view.js');
  const { scanWorkspace } = await import('../src/search/index/scan.js');
  const { queryTerms } = await import('../src/search/text/tokenize.js');
  const ws = searchWorkspace(t);
  const loaded = loadConfig(ws);
  await runIndex(ws, loaded);
  // An edit after the index adds a memory segment and dead docs to the persisted ones.
  appendFileSync(
    join(ws, 'memory', '2026-11-21.md'),
    '\n## Note: events again\n- id: NOTE-20261121-events-again\n- why: SQLite events, postgres events, redis events\n',
  );
  let cuts = 0;
  for (const tier of ['warm', 'cold'] as const) {
    const opened = await openTier(ws, tier, scanWorkspace(ws, loaded.config.extraPaths, tier), loaded.config.search);
    for (const q of [
      'SQLite events',
      'postgres',
      '为什么放弃 Redis 缓存',
      'the',
      'deploy kubernetes 部署',
      'event store move decision',
    ]) {
      const terms = queryTerms(q);
      for (const limit of [1, 3, 10, 500]) {
        const cut = lexicalSearch(opened.view, terms, limit);
        const all = lexicalSearch(opened.view, terms, limit, { rankAll: true });
        const label = `${tier}: ${q} (top ${limit})`;
        assert.deepEqual(
          cut.map((h) => [h.doc, h.terms]),
          all.map((h) => [h.doc, h.terms]),
          label,
        );
        cut.forEach((h, i) => assert.ok(Math.abs(h.score - all[i]!.score) <= 1e-12 * all[i]!.score, label));
        // More hits than the limit: the cut-off ran (bm25-cutoff.ts loads fewer docs than were read).
        if (lexicalSearch(opened.view, terms, limit + 1, { rankAll: true }).length > limit) cuts++;
      }
    }
    opened.close();
  }
  assert.ok(cuts >= 10, `the cut-off ran in ${cuts} cases`);
});

test("folding with a converter of only the applicable opencc entries gives the library converter's output", async () => {
  const { createRequire } = await import('node:module');
  const { readdirSync, readFileSync } = await import('node:fs');
  const { fullConverter, smallConverter } = await import('../src/search/text/fold.js');
  const fc = (await import('fast-check')).default;
  const full = fullConverter();
  const same = (text: string) =>
    assert.equal(smallConverter(new Set(text))(text), full(text), JSON.stringify(text.slice(0, 80)));
  // Every Markdown file of the fixtures, whole.
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
      d.isDirectory() ? walk(join(dir, d.name)) : d.name.endsWith('.md') ? [join(dir, d.name)] : [],
    );
  for (const file of walk(join(import.meta.dirname, 'fixtures')))
    same(readFileSync(file, 'utf8').normalize('NFKC').toLowerCase());
  // Texts made of the dictionaries' own keys and values (phrases overlapping phrases), mixed with Latin text.
  const cfg = (
    createRequire(import.meta.url)('opencc-js/t2cn') as {
      Locale: {
        configs: Record<
          string,
          { normalizationChain: string[][]; segmentation: string[]; conversionChain: string[][] }
        >;
      };
    }
  ).Locale.configs.tw2sp!;
  const words = [...cfg.normalizationChain.flat(), ...cfg.segmentation, ...cfg.conversionChain.flat()].flatMap((d) =>
    d.split('|').flatMap((e) => e.split(' ')),
  );
  fc.assert(
    fc.property(
      fc.array(fc.oneof(fc.constantFrom(...words), fc.constantFrom(' ', 'redis', '，', '\n', '緩存')), {
        maxLength: 12,
      }),
      (parts) => same(parts.join('')),
    ),
    { numRuns: 2000 },
  );
  // An opencc-js whose undocumented dictionaries are reshaped or gone: the library's own converter, same output.
  const { tw2sp } = await import('../src/search/text/fold.js');
  const real = createRequire(import.meta.url)('opencc-js/t2cn') as Parameters<typeof tw2sp>[0];
  assert.ok(tw2sp(real), 'the pinned opencc-js has the shape fold.ts reads');
  for (const reshaped of [
    { ...real, Locale: undefined },
    { ...real, Locale: { configs: {} } },
    { ...real, Locale: { configs: { tw2sp: { conversionChain: 'x' } } } },
    { ...real, Trie: undefined },
  ]) {
    assert.equal(tw2sp(reshaped), undefined);
    const text = '為什麼放棄 Redis 緩存，改用本地記憶體';
    assert.equal(smallConverter(new Set(text), reshaped)(text), full(text));
  }
});

test("snippet hits without the segmenter are the tokenizer's hits whenever the query has no long CJK word", async () => {
  const { readdirSync, readFileSync } = await import('node:fs');
  const { lineHits } = await import('../src/search/text/snippet.js');
  const { queryTerms, tokenize } = await import('../src/search/text/tokenize.js');
  const fc = (await import('fast-check')).default;
  // A line's hits are the query terms among the index's tokens of it (Han unigrams included).
  const reference = (line: string, want: Set<string>) => new Set(tokenize(line, true).filter((t) => want.has(t))).size;
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
      d.isDirectory() ? walk(join(dir, d.name)) : d.name.endsWith('.md') ? [join(dir, d.name)] : [],
    );
  const lines = walk(join(import.meta.dirname, 'fixtures'))
    .flatMap((f) => readFileSync(f, 'utf8').split('\n'))
    .filter((l) => l.trim());
  const queries = [
    '为什么放弃 Redis 缓存',
    '重写 tracing',
    '部署流程',
    '資料庫 連線池',
    'postgres 事件',
    '决定升级 tls',
    'Redis',
    '快取',
    '缓存策略和数据库连接池大小',
    '缓',
    '池 部署',
    'ー',
  ];
  for (const q of queries) {
    const terms = queryTerms(q);
    const long = terms.some((t) =>
      /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー]{3,}$/u.test(t),
    );
    const want = new Set(terms);
    for (const line of lines) assert.equal(lineHits(line, want, long), reference(line, want), `${q} | ${line}`);
  }
  // Random mixes of CJK text and Latin words against random term sets of bigrams and words.
  const cjk = fc.constantFrom(...'为什么放弃缓存數據庫连线池部署流程的了是我们決定重寫ー한국어カタカナ');
  const text = fc
    .array(fc.oneof(cjk, fc.constantFrom(' ', 'redis', 'Tls', '，', '-', 'x')), { maxLength: 30 })
    .map((a) => a.join(''));
  fc.assert(
    fc.property(text, text, (line, query) => {
      const terms = queryTerms(query).filter(
        (t) => !/^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー]{3,}$/u.test(t),
      );
      assert.equal(lineHits(line, new Set(terms), false), reference(line, new Set(terms)));
      assert.equal(lineHits(line, new Set(queryTerms(query)), true), reference(line, new Set(queryTerms(query))));
    }),
    { numRuns: 2000 },
  );
});
