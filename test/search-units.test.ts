/** Pure parts of search: tokenizer, folding, windows, chunker, globs, fusion. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fieldLength } from '../src/search/text/cjk.js';
import { queryTerms, STEM_WEIGHT, stemWeights, tokenize } from '../src/search/text/tokenize.js';
import { fold } from '../src/search/text/fold.js';
import { lineWindows } from '../src/search/text/windows.js';
import { chunkMarkdown } from '../src/search/text/chunk.js';
import { globToRegExp, makeFilter, unknownFilterValues } from '../src/search/query/filter.js';
import { recencyBoost, statusBoost } from '../src/search/query/rank.js';
import { agreement, fuse, MAX_WEIGHT } from '../src/search/query/fusion.js';
import { liftPredecessors, LIFT, supersededIds } from '../src/search/query/past-lift.js';
import { monthBoost, MONTH_BOOST, queryTime } from '../src/search/query/query-time.js';
import { successorsFirst } from '../src/search/query/search.js';
import { type SearchResult } from '../src/search/query/outcome.js';
import * as segmentFormat from '../src/search/index/segment-format.js';
import type { BuiltDoc } from '../src/search/index/segment-format.js';
import { declineBeyond, IndexDeclined } from '../src/search/index/index-rules.js';
import { emptyTier } from '../src/search/index/tier-file.js';
import { docRuns, docsOf, runsOf } from '../src/search/index/doc-runs.js';
import { dropEmptySegments, retireDocs } from '../src/search/index/tier-edit.js';
import { reuseChunks, type OldDocs } from '../src/search/index/chunk-reuse.js';
import { BUCKETS, bucketOf, Manifest } from '../src/search/index/manifest.js';
import { docRecord } from '../src/search/index/build-docs.js';
import type { Chunk, DocRecord } from '../src/search/text/types.js';
import { ReadDocs } from '../src/search/query/read-docs.js';
import { nthSmallest } from '../src/search/query/bm25-cutoff.js';
import type { Segment } from '../src/search/index/segment.js';

// chunkMarkdown needs remark for MEMORY.md and the remark path (mem index loads it on demand).

test('a two-character Chinese word in the middle of a sentence is a token', () => {
  const tokens = tokenize('我们决定放弃Redis缓存，因为命中率很低');
  for (const t of ['缓存', '命中', 'redis', '放弃']) assert.ok(tokens.includes(t), `${t} in ${tokens.join('|')}`);
  assert.ok(!tokens.includes('我们决定放弃redis缓存'), 'never a whole clause');
});

test('case folding, full-width folding and Traditional → Simplified (with Taiwan phrases)', () => {
  assert.equal(fold('PostgreSQL'), 'postgresql');
  assert.equal(fold('ＡＢＣ'), 'abc');
  assert.equal(fold('為什麼放棄 Redis 緩存'), '为什么放弃 redis 缓存');
  assert.equal(fold('快取'), '缓存');
  assert.equal(fold('資料庫'), '数据库');
  assert.deepEqual(tokenize('緩存'), tokenize('缓存'));
});

test('Japanese is segmented too; a lone CJK character stays a unigram', () => {
  assert.ok(tokenize('データベースを移行する').includes('移行'));
  assert.deepEqual(tokenize('a 字 b'), ['a', '字', 'b']);
});

test('the memory index also keeps each Han character of a longer run; a query asks for one only when it stands alone', () => {
  assert.deepEqual(tokenize('锁超时', true), ['锁超', '超时', '锁', '超', '时']);
  assert.deepEqual(tokenize('锁超时'), ['锁超', '超时']);
  // Kana and Hangul give no unigrams (a lone one still is one).
  assert.deepEqual(tokenize('かけ锁', true), ['かけ', 'け锁', '锁']);
  assert.deepEqual(tokenize('한국', true), ['한국']);
  assert.deepEqual(queryTerms('锁'), ['锁']);
  assert.deepEqual(queryTerms('数据库锁'), tokenize('数据库锁'));
  assert.ok(!queryTerms('数据库锁').includes('锁'));
});

test('a word of five or more letters a-z also gives its marked stem; a query puts its stems after its words, outside the word limit', () => {
  assert.deepEqual(tokenize('PostgreSQL caches cache x1234567 naïveté state'), [
    'postgresql',
    '~postg',
    'caches',
    '~cache',
    'cache',
    '~cache',
    'x1234567',
    'naïveté',
    'state',
    '~state',
  ]);
  assert.deepEqual(tokenize('ab12cdef résumés four'), ['ab12cdef', 'résumés', 'four']);
  const terms = queryTerms('dump drop postgres caches cache');
  assert.deepEqual(terms, ['dump', 'drop', 'postgres', 'caches', 'cache', '~postg', '~cache']);
  assert.deepEqual(
    [...stemWeights(terms)],
    [
      ['~postg', STEM_WEIGHT],
      ['~cache', STEM_WEIGHT],
    ],
  );
  const long = queryTerms(
    Array.from({ length: 70 }, (_, i) => `word${String.fromCharCode(97 + (i % 26))}${i}`).join(' '),
  );
  assert.equal(long.filter((t) => !t.startsWith('~')).length, 64, 'stems do not use up the word limit');
});

test('a query leaves out its stop words (and their stems), and cuts a Chinese run where one stands', () => {
  assert.deepEqual(queryTerms('what was the deploy rule before the migration'), [
    'deploy',
    'rule',
    'migration',
    '~deplo',
    '~migra',
  ]);
  // 怎么 is cut with the pairs across its edges (源怎, 么放); a Traditional query folds first.
  assert.deepEqual(queryTerms('现在号源怎么放'), ['号源', '放']);
  assert.deepEqual(queryTerms('號源怎麼放'), ['号源', '放']);
  // Only stop words: they are what there is to search for.
  assert.deepEqual(queryTerms('what is it'), ['what', 'is', 'it']);
  assert.deepEqual(queryTerms('是什么'), tokenize('是什么'));
});

test('a question about the past: its cues and months; it lifts what its best hits superseded to just below them', () => {
  assert.deepEqual(queryTime('what was the deploy rule in January'), { past: true, months: [1] });
  assert.deepEqual(queryTime('一月份号源几点放'), { past: true, months: [1] });
  assert.deepEqual(queryTime('年初存檔存在哪裡'), { past: true, months: [1, 2] });
  assert.deepEqual(queryTime('上 SLS 之前日志放在哪里'), { past: true, months: [] });
  assert.deepEqual(queryTime('how do we deploy to production'), { past: false, months: [] });
  assert.deepEqual(queryTime('who may approve a release'), { past: false, months: [] }, '"may" alone is no month');
  assert.equal(monthBoost('2026-01-15', queryTime('in January')), MONTH_BOOST);
  assert.equal(monthBoost('2026-03-15', queryTime('in January')), 1);
  const r = (id: string, score: number) => ({ id, score }) as SearchResult;
  const sls = r('NEW', 10);
  const other = r('X', 8);
  const local = r('OLD', 1);
  const field = new Map([[sls, 'OLD']]);
  const lifted = liftPredecessors(
    [sls, other, local],
    1,
    (x) => field.get(x) ?? null,
    () => null,
  );
  assert.deepEqual(
    lifted.map((x) => [x.id, x.score]),
    [
      ['NEW', 10],
      ['OLD', 10 * LIFT],
      ['X', 8],
    ],
  );
  // Not among the results: taken from the index; a predecessor of a hit below k is left alone.
  const fresh = r('OLD2', 0);
  const more = liftPredecessors(
    [r('A', 5), r('B', 4)],
    1,
    (x) => (x.id === 'A' ? 'OLD2' : x.id === 'B' ? 'OLD3' : null),
    (id) => (id === 'OLD2' ? fresh : r(id, 0)),
  );
  assert.deepEqual(
    more.map((x) => x.id),
    ['A', 'OLD2', 'B'],
  );
  assert.deepEqual(supersededIds('A, B C'), ['A', 'B', 'C']);
});

test('query terms are distinct and bounded for a huge query', () => {
  assert.deepEqual(queryTerms('redis Redis REDIS'), ['redis', '~redis']);
  const huge = Array.from({ length: 20_000 }, (_, i) => `w${i}`).join(' ');
  assert.equal(queryTerms(huge).length, 64);
  assert.deepEqual(queryTerms('!!! ？？ ...'), []);
});

test('windows split on line boundaries with overlap and cover every line', () => {
  const lines = Array.from({ length: 50 }, (_, i) => `line ${i} has five words`);
  const w = lineWindows(lines, 60, 12);
  assert.ok(w.length > 3);
  assert.equal(w[0]!.from, 0);
  assert.equal(w.at(-1)!.to, 49);
  for (let i = 1; i < w.length; i++)
    assert.ok(w[i]!.from <= w[i - 1]!.to && w[i]!.from > w[i - 1]!.from, 'overlapping, advancing');
  assert.deepEqual(lineWindows(['short'], 60, 12), [{ from: 0, to: 0 }]);
});

test('chunker: one chunk per entry with its fields, sections, MEMORY.md items, front matter, code fences', () => {
  const daily =
    '# 2026-11-21\n\n## Decision: Keep SQLite\n- id: DECISION-20261121-keep-sqlite\n- date: 2026-11-21\n- status: superseded\n- source:\n  - session_id: abc\n  - session_path: ~/x.jsonl\n  - message_range: 1-2\n\n```md\n## Rule: not a heading\n```\n\n## Note: second\n- id: NOTE-20261121-second\n';
  const chunks = chunkMarkdown('memory/2026-11-21.md', daily, {
    chunkTokens: 400,
    overlapTokens: 80,
    listItems: false,
  });
  const entries = chunks.filter((c) => c.entryId);
  assert.deepEqual(
    entries.map((c) => [c.heading, c.startLine, c.endLine, c.status]),
    [
      ['Decision: Keep SQLite', 3, 14, 'superseded'],
      ['Note: second', 16, 17, 'active'],
    ],
  );
  assert.deepEqual(entries[0]!.source, { session_id: 'abc', session_path: '~/x.jsonl', message_range: '1-2' });
  const memory = chunkMarkdown('MEMORY.md', '# Memory\n\n## Rules\n- one rule\n- two rule\n', {
    chunkTokens: 400,
    overlapTokens: 80,
    listItems: true,
  });
  assert.deepEqual(
    memory.filter((c) => c.text.startsWith('- ')).map((c) => [c.heading, c.startLine]),
    [
      ['Rules', 4],
      ['Rules', 5],
    ],
  );
  const fm = chunkMarkdown('second-brain/x.md', '---\ntitle: Hello\ndate: 2026-01-02\ntags: [a, b]\n---\nbody text\n', {
    chunkTokens: 400,
    overlapTokens: 80,
    listItems: false,
  });
  assert.deepEqual(
    [fm[0]!.title, fm[0]!.date, fm[0]!.tags, fm[0]!.startLine, fm[0]!.text],
    ['Hello', '2026-01-02', 'a b', 6, 'body text'],
  );
});

test('chunker: a byte order mark hides neither a first heading (each parser) nor front matter', () => {
  const bom = '\uFEFF## Rule: Deploys on Tuesdays\n- id: RULE-20261121-deploys-on-tuesdays\n- status: active\n';
  for (const parser of ['headings', 'remark', 'blocks'] as const) {
    const chunks = chunkMarkdown('memory/projects/ops.md', bom, {
      chunkTokens: 400,
      overlapTokens: 80,
      listItems: false,
      parser,
    });
    assert.deepEqual(
      chunks.map((c) => [c.heading, c.entryId, c.startLine]),
      [['Rule: Deploys on Tuesdays', 'RULE-20261121-deploys-on-tuesdays', 1]],
      parser,
    );
  }
  const fm = chunkMarkdown('second-brain/x.md', '\uFEFF---\ntitle: Hello\n---\nbody text\n', {
    chunkTokens: 400,
    overlapTokens: 80,
    listItems: false,
  });
  assert.deepEqual([fm[0]!.title, fm[0]!.startLine, fm[0]!.text], ['Hello', 4, 'body text']);
});

test('a long heading-less file becomes overlapping windows of one group', () => {
  const text = Array.from({ length: 400 }, (_, i) => `word${i} alpha beta gamma`).join('\n');
  const chunks = chunkMarkdown('memory/notes.md', text, { chunkTokens: 100, overlapTokens: 20, listItems: false });
  assert.ok(chunks.length >= 16);
  assert.equal(new Set(chunks.map((c) => c.group)).size, 1);
  assert.equal(chunks[0]!.startLine, 1);
  assert.equal(chunks.at(-1)!.endLine, 400);
});

test('filters: globs, kinds, statuses, date bounds', () => {
  assert.ok(globToRegExp('memory/2026-11-*.md').test('memory/2026-11-21.md'));
  assert.ok(!globToRegExp('memory/2026-11-*.md').test('memory/archive/2026-11-21.md'));
  assert.ok(globToRegExp('**/archive/**').test('memory/archive/x.md'));
  assert.ok(globToRegExp('*.md').test('memory/a.md'));
  const r = {
    kind: 'Decision',
    status: 'active',
    date: '2026-11-21',
    scope: 'project:shop',
    path: 'memory/a.md',
  } as never;
  assert.equal(
    makeFilter({ kind: 'decision', since: '2026-11-01', until: '2026-11-30', scope: 'PROJECT:shop' })(r),
    true,
  );
  assert.equal(makeFilter({ since: '2026-11-22' })(r), false);
  assert.equal(makeFilter({ status: 'superseded' })(r), false);
  // A scope written from a folder name with a space (import writes project:my-shop) is found by the folder's name.
  const spaced = {
    kind: 'Rule',
    status: 'active',
    date: '2026-11-21',
    scope: 'project:my-shop',
    path: 'memory/a.md',
  } as never;
  assert.equal(makeFilter({ scope: 'project:My Shop' })(spaced), true);
  assert.equal(makeFilter({ scope: 'project:my' })(spaced), false);
});

test('fusion: a vector ranking unrelated to the lexical one changes nothing; one that agrees re-ranks and extends, never demotes', () => {
  const lex = Array.from({ length: 30 }, (_, i) => ({ doc: i, score: 30 - i }));
  // Unrelated: the vector list's head holds none of the lexical head.
  const random = Array.from({ length: 30 }, (_, i) => ({ doc: 1000 + i, score: 1 - i / 30 }));
  const none = fuse(lex, random, 10, 5000);
  assert.equal(none.weight, 0);
  assert.deepEqual(
    [...none.scores].filter(([d]) => d < 1000),
    lex.map((h) => [h.doc, h.score]),
  );
  assert.ok(
    [...none.scores.keys()].every((d) => d < 1000),
    'no vector-only doc joins with weight 0',
  );
  // Agreeing on the head, but preferring doc 7 and a doc BM25 missed (500).
  const agree = [
    { doc: 7, score: 0.9 },
    ...lex
      .slice(0, 19)
      .filter((h) => h.doc !== 7)
      .map((h, i) => ({ doc: h.doc, score: 0.8 - i / 100 })),
    { doc: 500, score: 0.85 },
  ];
  const some = fuse(lex, agree, 10, 5000);
  assert.ok(some.weight > 0 && some.weight <= MAX_WEIGHT);
  for (const h of lex) assert.ok(some.scores.get(h.doc)! >= h.score, 'a lexical hit never loses score');
  assert.ok(some.scores.get(7)! > some.scores.get(6)!, 'the agreeing model moves doc 7 up');
  assert.ok(
    some.scores.get(500)! > 0 && some.scores.get(500)! <= lex[9]!.score,
    'a vector-only doc joins below the lexical top k',
  );
  assert.equal(agreement(lex, lex, 5000), 1);
  assert.equal(fuse([], agree, 10, 5000).scores.get(7), 0.9, 'no lexical hit: the vector ranking is the answer');
  assert.ok(recencyBoost('2026-11-21', '2026-11-22') > recencyBoost('2025-11-21', '2026-11-22'));
  assert.ok(statusBoost('superseded') < statusBoost('active'));
  const r = (id: string, supersededBy: string | null = null) => ({ id, supersededBy }) as SearchResult;
  assert.deepEqual(
    successorsFirst([r('OLD', 'NEW'), r('X'), r('NEW')]).map((x) => x.id),
    ['X', 'NEW', 'OLD'],
  );
});

test('the line-scan fast path finds the same sections as remark on plain Markdown', async () => {
  const { readFileSync, readdirSync } = await import('node:fs');
  const { join } = await import('node:path');
  const dir = join(import.meta.dirname, 'fixtures', 'search', 'quality', 'workspace', 'memory');
  const samples = readdirSync(dir)
    .filter((n) => n.endsWith('.md'))
    .map((n) => readFileSync(join(dir, n), 'utf8'));
  samples.push(
    '# T\n\ntext\n\n```sh\n# not a heading\n## Rule: nor this\n```\n\n### Sub\nmore\n\n## Decision: x\n- id: D-1\n### inside the entry\n- why: y\n# Top\nend\n',
  );
  assert.ok(samples.length >= 3);
  for (const text of samples) {
    const o = { chunkTokens: 120, overlapTokens: 20, listItems: false };
    assert.deepEqual(
      chunkMarkdown('memory/x.md', text, { ...o, parser: 'headings' }),
      chunkMarkdown('memory/x.md', text, { ...o, parser: 'remark' }),
    );
  }
});

test('the lexical search path does not statically import remark, gray-matter, openai or chokidar', async () => {
  const { readFileSync } = await import('node:fs');
  const { dirname, join, resolve } = await import('node:path');
  const src = join(import.meta.dirname, '..', 'src');
  const seen = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    // Static imports only (type-only imports vanish at run time; `await import()` is lazy).
    for (const m of text.matchAll(/^import\s+(?!type\s)[^'"]*?from\s+'([^']+)'|^import\s+'([^']+)'/gm)) {
      const spec = (m[1] ?? m[2])!;
      if (spec.startsWith('.')) visit(resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
      else packages.add(spec);
    }
  };
  visit(join(src, 'cli', 'commands', 'search.ts'));
  visit(join(src, 'search', 'query', 'search.ts'));
  visit(join(src, 'search', 'embed', 'embed-query.ts'));
  assert.ok(seen.size > 10, 'walked the graph');
  assert.ok(packages.has('minisearch'));
  for (const heavy of ['remark-parse', 'unified', 'gray-matter', 'openai', 'chokidar'])
    assert.ok(!packages.has(heavy), `${heavy} is imported: ${[...packages].join(', ')}`);
});

/** The tokenizer as first defined (regexes over the text): the scanner must give exactly these tokens. */
function referenceTokenizeFolded(text: string, hanUnigrams = false): string[] {
  const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー]+/gu;
  const WORD = /[\p{L}\p{N}]+/gu;
  const seg = new Intl.Segmenter('zh', { granularity: 'word' });
  const out: string[] = [];
  let last = 0;
  const latin = (s: string) => {
    for (const m of s.matchAll(WORD)) {
      if (m[0].length > 40) continue;
      out.push(m[0]);
      if (/^[a-z]{5}/.test(m[0])) out.push(`~${m[0].slice(0, 5)}`);
    }
  };
  for (const m of text.matchAll(CJK_RUN)) {
    latin(text.slice(last, m.index));
    const chars = Array.from(m[0]);
    if (chars.length === 1) out.push(m[0]);
    else {
      for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
      if (chars.length > 2)
        for (const s of seg.segment(m[0])) if (s.isWordLike && Array.from(s.segment).length > 2) out.push(s.segment);
      if (hanUnigrams) out.push(...chars.filter((ch) => /^\p{Script=Han}$/u.test(ch)));
    }
    last = m.index + m[0].length;
  }
  latin(text.slice(last));
  return out;
}

test('the tokenizer scanner gives exactly the reference tokens (mixed scripts, surrogates, long words)', async () => {
  const { tokenizeFolded } = await import('../src/search/text/tokenize.js');
  const samples = [
    '我们决定放弃redis缓存，因为命中率很低 (p99 49ms) — see ONY-9601',
    'データベースを移行する。ラーメン、ー、한국어 텍스트 and café naïve résumé',
    '𠀋𠀌 emoji 😀x😀 a\u0301b ｆｕｌｌ １２３ Ⅻ ½ x²',
    'lone \ud800 high, lone \udc00 low, end \ud83d',
    'a'.repeat(40) + ' ' + 'b'.repeat(41) + ' ' + 'é'.repeat(41) + ' 字',
    'Ελληνικά кириллица עברית العربية हिन्दी ไทย',
    'PostgreSQL deployments caches cache ab12cdef abcd9xyz résumés naïveté x_postgres',
    '',
  ];
  const rnd = (() => {
    let s = 7;
    return () => ((s = Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0) / 2 ** 32;
  })();
  const alphabet = Array.from('ab9 Z_-.,，。缓存為什麼データ한국🙂\ud800éー \n\t');
  for (let k = 0; k < 300; k++)
    samples.push(
      Array.from({ length: Math.floor(rnd() * 60) }, () => alphabet[Math.floor(rnd() * alphabet.length)]!).join(''),
    );
  for (const s of samples) {
    const text = fold(s);
    assert.deepEqual(tokenizeFolded(text), referenceTokenizeFolded(text), JSON.stringify(s));
    assert.deepEqual(tokenizeFolded(text, true, true), referenceTokenizeFolded(text, true), JSON.stringify(s));
  }
});

/** The batch segment encoder as first written: the streaming builder must give the same bytes. */
function referenceEncodeSegment(docs: BuiltDoc[], first: number, cap: number): Record<string, Uint8Array> {
  const { termHash, shardCountFor } = segmentFormat;
  const postings = new Map<string, number[]>();
  const lens = new Map<number, number>();
  for (const { record, tokens } of docs) {
    tokens.forEach((list, field) => {
      const tf = new Map<string, number>();
      for (const t of list) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const [t, n] of tf) {
        let p = postings.get(t);
        if (!p) postings.set(t, (p = []));
        p.push(record.doc, (field << 24) | Math.min(n, 0xffffff));
      }
    });
    lens.set(record.doc, fieldLength(tokens[1]));
  }
  const terms = [...postings.keys()].sort();
  const shards = shardCountFor(terms.length);
  const shardTerms: Record<string, [number, number, number]>[] = Array.from({ length: shards }, () => ({}));
  const post: number[] = [];
  for (const term of terms) {
    const p = postings.get(term)!;
    const n = p.length / 2;
    const df = new Set(p.filter((_, i) => i % 2 === 0)).size;
    shardTerms[termHash(term) % shards]![term] = [df, post.length / 2, n];
    const order = Array.from({ length: n }, (_, i) => i);
    if (n > cap)
      order.sort(
        (a, b) =>
          (p[b * 2 + 1]! & 0xffffff) - (p[a * 2 + 1]! & 0xffffff) || lens.get(p[a * 2]!)! - lens.get(p[b * 2]!)!,
      );
    for (const i of order) post.push(p[i * 2]!, p[i * 2 + 1]!);
  }
  const enc = new TextEncoder();
  const bodies = shardTerms.map((o) => enc.encode(JSON.stringify(o)));
  const head = [shards];
  let off = 0;
  for (const b of bodies) (head.push(off), (off += b.length));
  head.push(off);
  const lines = docs.map((d) => enc.encode(JSON.stringify(d.record) + '\n'));
  const didx = [first, docs.length];
  let pos = 0;
  docs.forEach((d, i) => {
    didx.push(pos, fieldLength(d.tokens[0]), fieldLength(d.tokens[1]), fieldLength(d.tokens[2]));
    pos += lines[i]!.length;
  });
  didx.push(pos);
  const u8 = (a: number[]) => new Uint8Array(new Uint32Array(a).buffer);
  return { dict: Buffer.concat([u8(head), ...bodies]), post: u8(post), didx: u8(didx), docs: Buffer.concat(lines) };
}

test('segment builder: the same bytes as the reference encoder; addDocs (term ids) equals buildDocs (strings)', async () => {
  const { readFileSync, readdirSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { SegmentBuilder, encodeSegment } = await import('../src/search/index/segment-builder.js');
  const { addDocs, buildDocs } = await import('../src/search/index/build-docs.js');
  const root = join(import.meta.dirname, 'fixtures', 'search', 'quality', 'workspace');
  const files = (readdirSync(root, { recursive: true }) as string[])
    .filter((n) => n.endsWith('.md'))
    .map((n) => n.split('\\').join('/'))
    .sort();
  const cfg = { chunkTokens: 60, overlapTokens: 15 };
  const first = 7;
  const docs: BuiltDoc[] = [];
  const builder = new SegmentBuilder(first, 3);
  // Built before its first id is known (as a worker thread does), numbered by finish(first).
  const relative = new SegmentBuilder(0, 3);
  for (const f of files) {
    const text = readFileSync(join(root, f), 'utf8');
    const before = docs.length;
    docs.push(...buildDocs(f, text, 'warm', first + docs.length, cfg));
    assert.equal(addDocs(builder, f, text, 'warm', cfg), docs.length - before);
    addDocs(relative, f, text, 'warm', cfg);
  }
  assert.ok(
    docs.length > 30 && docs.some((d) => d.tokens[1].some((t) => /\p{Script=Han}/u.test(t))),
    'Chinese and English docs',
  );
  // cap 3: most common terms' runs are stored in impact order, which the reference sorts too.
  for (const cap of [3, 4096]) {
    const want = referenceEncodeSegment(docs, first, cap);
    const got = encodeSegment(docs, first, cap);
    for (const ext of ['dict', 'post', 'didx', 'docs'] as const)
      assert.ok(Buffer.from(got[ext]).equals(Buffer.from(want[ext]!)), `${ext} (cap ${cap})`);
  }
  // A body far longer than the rest takes the packed-key sort instead of the counting sort.
  const synthetic: BuiltDoc[] = Array.from({ length: 12 }, (_, i) => ({
    record: { ...docs[0]!.record, doc: i },
    tokens: [
      ['common'],
      [...Array(1 + (i % 3)).fill('common'), ...Array(i === 5 ? 70_000 : i * 7).fill('filler')],
      i % 2 ? ['common'] : [],
    ],
  }));
  const want2 = referenceEncodeSegment(synthetic, 0, 3);
  const got2 = encodeSegment(synthetic, 0, 3);
  for (const ext of ['dict', 'post', 'didx', 'docs'] as const)
    assert.ok(Buffer.from(got2[ext]).equals(Buffer.from(want2[ext]!)), `long body: ${ext}`);
  const streamed = builder.finish();
  const want = referenceEncodeSegment(docs, first, 3);
  for (const ext of ['dict', 'post', 'didx', 'docs'] as const)
    assert.ok(Buffer.from(streamed[ext]).equals(Buffer.from(want[ext]!)), `addDocs ${ext}`);
  const late = relative.finish(first);
  for (const ext of ['dict', 'post', 'didx', 'docs'] as const)
    assert.ok(Buffer.from(late[ext]).equals(Buffer.from(want[ext]!)), `finish(first) ${ext}`);
});

test('a rebuild on worker threads (MEM_INDEX_WORKERS=2) writes the same segments as one thread; a failing worker falls back', async (t) => {
  const { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { mem, tempDir } = await import('./helpers/cli.js');
  const { readTier } = await import('./search-helpers.js');
  const ws = join(tempDir(t, 'memfold-par-'), 'ws');
  cpSync(join(import.meta.dirname, 'fixtures', 'search', 'quality', 'workspace'), ws, { recursive: true });
  // Enough files for several segments of 40 docs: renamed copies of the daily files, and an empty one last.
  const daily = readdirSync(join(ws, 'memory')).filter((n) => n.endsWith('.md'));
  for (let i = 0; i < 12; i++)
    for (const n of daily)
      writeFileSync(
        join(ws, 'memory', `${2000 + i}-${n.slice(5)}`),
        readFileSync(join(ws, 'memory', n), 'utf8').replaceAll('2026-', `${2000 + i}-`),
      );
  writeFileSync(join(ws, 'memory', 'zz-empty.md'), '');
  const run = async (workers: string, extra: Record<string, string> = {}) => {
    const r = await mem(['-C', ws, '--json', 'index', '--rebuild'], {
      env: { MEM_INDEX_WORKERS: workers, MEM_INDEX_SEGMENT_DOCS: '40', ...extra },
      timeoutMs: 60_000,
    });
    assert.equal(r.code, 0, r.stderr);
    const dir = join(ws, '.mem', 'index');
    const tiers = (['warm', 'cold'] as const).map((tier) => {
      const { head, files } = readTier(ws, tier);
      const segments = (head.segments as { name: string; first: number; count: number }[]).map((s) => [
        s.first,
        s.count,
        ...['dict', 'post', 'didx', 'docs'].map((ext) =>
          readFileSync(join(dir, `${s.name}.${ext}`)).toString('base64'),
        ),
      ]);
      return { segments, files: Object.entries(files).map(([p, f]) => [p, f.first, f.count, f.hash]) };
    });
    return { out: JSON.parse(r.stdout) as { warnings: string[] }, tiers };
  };
  const one = await run('0');
  assert.ok(one.tiers[0]!.segments.length >= 4, `several warm segments (${one.tiers[0]!.segments.length})`);
  const two = await run('2');
  assert.deepEqual(two.tiers, one.tiers, 'the same segments, byte for byte, and the same manifest');
  assert.deepEqual(two.out.warnings, []);
  const failing = await run('2', { MEM_TEST_HOOKS: '1', MEM_INDEX_SIMULATE_WORKER_ERROR: '1' });
  assert.match(
    failing.out.warnings.join('\n'),
    /index worker threads failed \(index worker: simulated worker failure\): built the warm index in one thread/,
  );
  assert.deepEqual(failing.tiers, one.tiers);
  // A tier with no files at all (here cold) gives the workers nothing to do: the build still ends.
  rmSync(join(ws, 'memory', 'archive'), { recursive: true, force: true });
  rmSync(join(ws, 'second-brain'), { recursive: true, force: true });
  const r = await mem(['-C', ws, '--json', 'index', '--rebuild'], {
    env: { MEM_INDEX_WORKERS: '2' },
    timeoutMs: 30_000,
  });
  assert.equal(r.code, 0, r.stderr);
  assert.equal((JSON.parse(r.stdout) as { tiers: { cold: { chunks: number } } }).tiers.cold.chunks, 0);
});

test('chunker line split: the same lines as the entry parser splitLines, without their endings', async () => {
  const { textLines } = await import('../src/search/text/chunk.js');
  const { splitLines } = await import('../src/entries/parse.js');
  for (const text of [
    '',
    '\n',
    'a',
    'a\n',
    'a\r\n',
    'a\r',
    'a\r\nb\r',
    '\n\n',
    '\r\n\r\n',
    'x\r\r\n',
    '# T\n\nbody\r\n- id: x\n\n\n',
    '\r',
    'a\n\r',
  ]) {
    assert.deepEqual(
      textLines(text),
      splitLines(text).map((l) => l.replace(/\r?\n$/, '')),
      JSON.stringify(text),
    );
  }
});

test('mem index does not load remark or gray-matter up front: neither is in its static import graph', async () => {
  const { readFileSync } = await import('node:fs');
  const { dirname, join, resolve } = await import('node:path');
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const m of readFileSync(file, 'utf8').matchAll(
      /^import\s+(?!type\s)[^'"]*?from\s+'([^']+)'|^import\s+'([^']+)'/gm,
    )) {
      const spec = (m[1] ?? m[2])!;
      if (spec.startsWith('.')) visit(resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
      else packages.add(spec);
    }
  };
  visit(join(import.meta.dirname, '..', 'src', 'search', 'index', 'indexer.ts'));
  assert.ok(
    seen.has(join(import.meta.dirname, '..', 'src', 'search', 'text', 'chunk.ts')),
    'the chunker is in the graph',
  );
  for (const heavy of ['remark-parse', 'unified', 'gray-matter'])
    assert.ok(!packages.has(heavy), `${heavy} is imported: ${[...packages].join(', ')}`);
});

test('filesStamp: any path, size, mtime or ctime difference changes it; a manifest stamps as the scan it matches', async () => {
  const { filesStamp, manifestStamp } = await import('../src/search/index/files-stamp.js');
  const files = [
    { path: 'MEMORY.md', size: 10, mtimeMs: 1700000000000.125, ctimeMs: 1700000000000.5 },
    { path: 'memory/a.md', size: 20, mtimeMs: 1700000000001, ctimeMs: 1700000000002 },
  ];
  const base = filesStamp(files);
  assert.match(base, /^[0-9a-f]{40}$/);
  const variants = [
    [{ ...files[0]!, path: 'MEMORY.mdx' }, files[1]!],
    [files[0]!, { ...files[1]!, path: 'memory/b.md' }],
    [{ ...files[0]!, size: 11 }, files[1]!],
    [{ ...files[0]!, mtimeMs: 1700000000000.126 }, files[1]!],
    [files[0]!, { ...files[1]!, ctimeMs: 1700000000003 }],
    [files[0]!],
    [...files, { path: 'memory/c.md', size: 0, mtimeMs: 0, ctimeMs: 0 }],
  ];
  for (const v of variants) assert.notEqual(filesStamp(v), base, JSON.stringify(v));
  assert.equal(
    manifestStamp({
      'memory/a.md': { size: 20, mtimeMs: 1700000000001, ctimeMs: 1700000000002 },
      'MEMORY.md': { size: 10, mtimeMs: 1700000000000.125, ctimeMs: 1700000000000.5 },
    }),
    base,
  );
});

test('index rules: a limited update declines past its limit (changed, added and removed files count), a rebuild and a due compaction', () => {
  const prev = emptyTier('warm', 'tokens 400/80');
  for (let i = 0; i < 10; i++)
    prev.files.set(`memory/${i}.md`, { size: 10, mtimeMs: 1, ctimeMs: 1, hash: 'h', first: i * 5, count: 5 });
  Object.assign(prev, { docCount: 50, nextId: 50, segments: [{ name: 'warm-0-a', first: 0, count: 50 }] });
  const scan = [...prev.files.entries()].map(([path, f]) => ({
    path,
    abs: `/ws/${path}`,
    tier: 'warm' as const,
    size: f.size,
    mtimeMs: f.mtimeMs,
    ctimeMs: f.ctimeMs ?? f.mtimeMs,
  }));
  // One changed, one added, one removed: three files touched.
  const edited = [...scan.slice(1, 9), { ...scan[9]!, mtimeMs: 2 }, { ...scan[0]!, path: 'memory/new.md' }];
  assert.doesNotThrow(() => declineBeyond(3, 'warm', prev, 10, edited, null));
  assert.throws(
    () => declineBeyond(2, 'warm', prev, 10, edited, null),
    (e: Error) => e instanceof IndexDeclined && /3 files of the warm tier changed \(more than 2\)/.test(e.message),
  );
  assert.throws(() => declineBeyond(200, 'warm', prev, 10, scan, 'missing'), /the warm index must be rebuilt/);
  // Every file changed: all 50 docs would be dead (over 30 % of the collection, over 200 only past 200 docs).
  const big = emptyTier('warm', 'tokens 400/80');
  for (let i = 0; i < 100; i++)
    big.files.set(`memory/${i}.md`, { size: 10, mtimeMs: 1, ctimeMs: 1, hash: 'h', first: i * 3, count: 3 });
  Object.assign(big, { docCount: 300, nextId: 300, segments: [{ name: 'warm-0-a', first: 0, count: 300 }] });
  const touched = [...big.files.entries()].map(([path, f]) => ({
    path,
    abs: `/ws/${path}`,
    tier: 'warm' as const,
    size: f.size,
    mtimeMs: 2,
    ctimeMs: 1,
  }));
  assert.throws(() => declineBeyond(200, 'warm', big, 100, touched, null), /due for compaction/);
  assert.doesNotThrow(() =>
    declineBeyond(
      200,
      'warm',
      big,
      100,
      touched.map((f, i) => (i < 60 ? f : { ...f, mtimeMs: 1 })),
      null,
    ),
  );
});

test('tier bookkeeping: a retired file leaves the counts and length sums; a segment with no live doc goes with its dead ranges', () => {
  // Two segments: docs 0-4 (files a: 0-2, b: 3-4) and 5-6 (file c); every doc has lengths [1, 10, 2].
  const t = emptyTier('warm', 'tokens 400/80');
  t.files = Manifest.of({
    a: { size: 1, mtimeMs: 1, ctimeMs: 1, hash: 'a', first: 0, count: 3 },
    b: { size: 1, mtimeMs: 1, ctimeMs: 1, hash: 'b', first: 3, count: 2 },
    c: { size: 1, mtimeMs: 1, ctimeMs: 1, hash: 'c', first: 5, count: 2 },
    empty: { size: 0, mtimeMs: 1, ctimeMs: 1, hash: 'e', first: 7, count: 0 },
  });
  t.segments = [
    { name: 's0', first: 0, count: 5 },
    { name: 's1', first: 5, count: 2 },
  ];
  t.docCount = 7;
  t.lenSum = [7, 70, 14];
  t.nextId = 7;
  const asked: number[] = [];
  const lengths = (d: number) => (asked.push(d), [1, 10, 2] as const);
  assert.equal(retireDocs(t, t.files.get('empty')!, lengths), 0);
  assert.equal(retireDocs(t, t.files.get('a')!, lengths), 3);
  t.files.delete('a');
  assert.deepEqual(asked, [0, 1, 2], 'the lengths of exactly the retired docs');
  assert.deepEqual([t.docCount, t.deadCount, t.dead, t.lenSum], [4, 3, [[0, 3]], [4, 40, 8]]);
  dropEmptySegments(t);
  assert.deepEqual(
    t.segments.map((s) => s.name),
    ['s0', 's1'],
    'b still lives in s0',
  );
  assert.equal(retireDocs(t, t.files.get('b')!, lengths), 2);
  t.files.delete('b');
  dropEmptySegments(t);
  assert.deepEqual(
    t.segments.map((s) => s.name),
    ['s1'],
    's0 held no live doc',
  );
  assert.deepEqual([t.dead, t.deadCount, t.docCount, t.lenSum], [[], 0, 2, [2, 20, 4]]);
  // Dead ranges that overlap (never written so) prove nothing: the files say whether one lives.
  t.segments.push({ name: 's2', first: 7, count: 3 });
  t.files.set('d', { size: 1, mtimeMs: 1, ctimeMs: 1, hash: 'd', first: 8, count: 2 });
  t.dead.push([7, 2], [7, 1]);
  dropEmptySegments(t);
  assert.deepEqual(
    t.segments.map((s) => s.name),
    ['s1', 's2'],
    'd lives in s2',
  );
  t.files.delete('d');
  dropEmptySegments(t);
  assert.deepEqual(
    t.segments.map((s) => s.name),
    ['s1'],
    'no file left in s2',
  );
  // A file whose docs are runs in two segments (an edit kept some): all of them retire, each run dead in its own segment.
  t.segments.push({ name: 's3', first: 10, count: 2 });
  t.files.set('e', {
    size: 1,
    mtimeMs: 1,
    ctimeMs: 1,
    hash: 'e',
    first: 5,
    count: 3,
    runs: [
      [5, 2],
      [10, 1],
    ],
  });
  t.files.delete('c');
  asked.length = 0;
  assert.equal(retireDocs(t, t.files.get('e')!, lengths), 3);
  assert.deepEqual(
    [asked, t.dead.slice(-2)],
    [
      [5, 6, 10],
      [
        [5, 2],
        [10, 1],
      ],
    ],
  );
  t.files.delete('e');
  dropEmptySegments(t);
  assert.deepEqual(
    t.segments.map((s) => s.name),
    ['s3'],
    's1 lost its last live doc; doc 11 of s3 lives',
  );
  assert.deepEqual(t.dead, [[10, 1]]);
});

test('doc runs: consecutive ids join, except across a segment start; a file without runs is one run from first', () => {
  const starts =
    (...firsts: number[]) =>
    (d: number) =>
      firsts.includes(d);
  assert.deepEqual(runsOf([4, 5, 6, 9, 10, 2], starts()), [
    [4, 3],
    [9, 2],
    [2, 1],
  ]);
  assert.deepEqual(
    runsOf([4, 5, 6, 7], starts(6)),
    [
      [4, 2],
      [6, 2],
    ],
    'a run never spans two segments',
  );
  assert.deepEqual(runsOf([], starts()), []);
  assert.deepEqual(docRuns({ first: 3, count: 2 }), [[3, 2]]);
  assert.deepEqual(docRuns({ first: 3, count: 0 }), []);
  assert.deepEqual(
    docsOf(
      docRuns({
        first: 0,
        count: 3,
        runs: [
          [7, 1],
          [0, 2],
        ],
      }),
    ),
    [7, 0, 1],
  );
});

test('the manifest by bucket: counts what it lists, parses a bucket on first use, writes untouched lines back as read', () => {
  const m = Manifest.of({ 'memory/a.md': { size: 1, mtimeMs: 1, hash: 'a', first: 0, count: 2 } });
  const lines = m.serialize().map((l) => Buffer.from(l).toString());
  assert.equal(lines.length, BUCKETS);
  // Spaces JSON.stringify never writes: a line written back unparsed keeps them.
  const read = Manifest.read(
    lines.map((l, b) => Buffer.from(b === bucketOf('memory/a.md') ? l : '{ }')),
    1,
  );
  assert.equal(read.size, 1);
  assert.equal(read.get('memory/a.md')?.count, 2);
  assert.equal(read.get('memory/b.md'), undefined);
  read.set('memory/b.md', { size: 2, mtimeMs: 2, hash: 'b', first: 2, count: 1 });
  read.set('memory/a.md', { size: 3, mtimeMs: 3, hash: 'a2', first: 3, count: 1 });
  assert.equal(read.size, 2, 'a replaced entry is not counted twice');
  read.delete('memory/a.md');
  read.delete('memory/missing.md');
  assert.equal(read.size, 1);
  const out = read.serialize().map((l) => Buffer.from(l).toString());
  const touched = new Set([bucketOf('memory/a.md'), bucketOf('memory/b.md')]);
  out.forEach((line, b) => assert.equal(line, touched.has(b) ? JSON.stringify(read.bucket(b)) : '{ }', `bucket ${b}`));
  assert.deepEqual(read.toRecord(), { 'memory/b.md': { size: 2, mtimeMs: 2, hash: 'b', first: 2, count: 1 } });
  assert.throws(
    () =>
      Manifest.read(
        lines.slice(1).map((l) => Buffer.from(l)),
        1,
      ),
    new RegExp(`${BUCKETS - 1} buckets, not ${BUCKETS}`),
  );
  assert.throws(
    () =>
      Manifest.read(
        lines.map(() => Buffer.from('[]')),
        0,
      ).get('x'),
    /is not an object/,
  );
  // A line in another bucket's place, or an entry without its doc range: damage, found when parsed.
  const entry = (path: string) => JSON.stringify({ [path]: { size: 1, mtimeMs: 1, hash: 'h', first: 0, count: 1 } });
  const b = bucketOf('memory/a.md');
  const misplaced = lines.map((l, i) => Buffer.from(i === (b + 1) % BUCKETS ? entry('memory/a.md') : '{}'));
  assert.throws(
    () => Manifest.read(misplaced, 1).bucket((b + 1) % BUCKETS),
    new RegExp(`lists memory/a.md, which belongs in bucket ${b}`),
  );
  const broken = lines.map((l, i) =>
    Buffer.from(i === b ? JSON.stringify({ 'memory/a.md': { size: 1, mtimeMs: 1, hash: 'h' } }) : '{}'),
  );
  assert.throws(() => Manifest.read(broken, 1).get('memory/a.md'), /damaged entry for memory\/a.md/);
});

test('chunk reuse: a chunk equal to the stored doc at its position keeps it; a changed or moved one, or one too long to be stored whole, does not', () => {
  const text = '# Day\n\n## Note: alpha\n- id: NOTE-alpha\n\n## Note: beta\n- id: NOTE-beta\n';
  const old = chunkMarkdown('memory/d.md', text, { chunkTokens: 400, overlapTokens: 80, listItems: false });
  const stored = new Map<number, DocRecord>(old.map((c, i) => [10 + i, { ...docRecord(c, 'warm'), doc: 10 + i }]));
  const oldDocs = [...stored.keys()];
  const chunks = (t: string) =>
    chunkMarkdown('memory/d.md', t, { chunkTokens: 400, overlapTokens: 80, listItems: false });
  const from = (over: Partial<OldDocs> = {}): OldDocs => ({
    record: (d) => stored.get(d)!,
    startsSegment: () => false,
    keepable: () => true,
    ...over,
  });
  const reuse = (t: string, over: Partial<OldDocs> = {}) => reuseChunks(chunks(t), 'warm', oldDocs, from(over));
  // Appended: every old chunk is kept, the new one is not.
  const appended = reuse(`${text}\n## Note: gamma\n- id: NOTE-gamma\n`);
  assert.deepEqual(appended, { kept: [...oldDocs, -1], retired: [] });
  // The middle entry edited: only its doc dies.
  const edited = reuse(text.replace('NOTE-alpha', 'NOTE-alpha-2'));
  assert.deepEqual(
    edited.kept.map((d) => d >= 0),
    old.map((c) => !c.text.includes('alpha')),
  );
  assert.equal(edited.retired.length, 1);
  // A line above everything: all lines move, nothing is kept; the dead docs split at a segment start.
  const moved = reuse(`<!-- top -->\n${text}`, { startsSegment: (d) => d === 11 });
  assert.ok(moved.kept.every((d) => d === -1));
  assert.deepEqual(moved.retired, [
    [10, 1],
    [11, oldDocs.length - 1],
  ]);
  // A doc that may not be kept (in a tail segment) is not, even when its chunk is the same.
  assert.deepEqual(reuse(text, { keepable: (d) => d !== 11 }).kept, [10, -1, ...oldDocs.slice(2)]);
  // A text over what a doc stores cannot be compared: indexed again, even when the stored part is equal.
  const opts = { chunkTokens: 400, overlapTokens: 80, listItems: false };
  const long = `# Long\n\n${'lorem ipsum dolor '.repeat(130)}zebraword tail\n`;
  const cut = chunkMarkdown('memory/d.md', long, opts).find((c) => c.text.length > 2000)!;
  const cutStored = { ...docRecord(cut, 'warm'), doc: 0 };
  const one = (c: Chunk) =>
    reuseChunks([c], 'warm', [0], { record: () => cutStored, startsSegment: () => false, keepable: () => true }).kept;
  assert.deepEqual(one(cut), [-1]);
  // Nor a text of exactly the cutStored length: the cut beginning of a longer one, tokenized whole
  // (the long line shortened to where the cutStored text ends: same lines, same heading).
  const shortened = cutStored.text.slice(cutStored.text.lastIndexOf('\n') + 1);
  const exact = chunkMarkdown('memory/d.md', `# Long\n\n${shortened}\n`, opts).find(
    (c) => c.startLine === cut.startLine,
  )!;
  assert.equal(exact.text, cutStored.text);
  assert.deepEqual(one(exact), [-1]);
});

test('a --kind or --status that memfold never writes is named (typos), in any case; known ones and arch are not', () => {
  assert.deepEqual(unknownFilterValues({ kind: 'Decision', status: 'ACTIVE' }), []);
  assert.deepEqual(unknownFilterValues({ kind: 'arch', status: 'retracted' }), []);
  for (const kind of ['Preference', 'pref', 'goal', 'TASK', 'lesson'])
    assert.deepEqual(unknownFilterValues({ kind }), [], kind);
  assert.deepEqual(unknownFilterValues({}), []);
  const named = unknownFilterValues({ kind: 'decisions', status: 'done' });
  assert.equal(named.length, 2);
  assert.match(
    named[0]!,
    /--kind "decisions" is none of the kinds memfold writes \(decision, rule, architecture \(arch\), note, preference \(pref\), goal, task, lesson\)/,
  );
  assert.match(
    named[1]!,
    /--status "done" is none of the statuses memfold writes \(active, superseded, archived, retracted\)/,
  );
});

test('a snippet of a long line shows its first hit, with some text before it, in at most 240 characters', async () => {
  const { snippet } = await import('../src/search/text/snippet.js');
  const filler = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');
  const line = `${filler(150)} the okapi shards by tenant ${filler(60)}`;
  const s = snippet(`# Notes\n\n${line}`, tokenize('okapi'));
  assert.ok(s.length <= 240, `${s.length}`);
  assert.match(s, /^….* the okapi shards by tenant .*…$/);
  // A hit near the start keeps the line's start; a short line is whole.
  assert.match(snippet(`okapi ${filler(100)}`, tokenize('okapi')), /^okapi word0 .*…$/);
  assert.equal(snippet('The okapi shards.', tokenize('okapi')), 'The okapi shards.');
  // A hit at the very end: the window ends with the line, no trailing ellipsis.
  assert.match(snippet(`${filler(200)} 放弃缓存`, tokenize('缓存')), /^….* 放弃缓存$/);
  // Emoji and CJK around the hit: never a split surrogate pair, never over 240, the hit shown.
  const fc = (await import('fast-check')).default;
  const lone = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
  const piece = fc.constantFrom('😀', '𝒳', '缓', '存', 'a', ' ', 'word', 'é');
  fc.assert(
    fc.property(
      fc.array(piece, { minLength: 50, maxLength: 400 }),
      fc.array(piece, { minLength: 50, maxLength: 400 }),
      (before, after) => {
        const s = snippet(`${before.join('')} okapi ${after.join('')}`, tokenize('okapi'));
        assert.ok(s.length <= 240 && !lone.test(s) && s.includes('okapi'), s);
      },
    ),
    { numRuns: 500 },
  );
});

test('the docs a query reads keep their slots, segments and lengths, through the dense table and through the Map a far-spread tier falls back to', () => {
  // A segment whose docs' lengths are (doc, doc + 1, doc + 2).
  const seg = (first: number, count: number): Segment => ({
    first,
    count,
    posting: () => undefined,
    pairs: () => 0,
    record: () => {
      throw new Error('unused');
    },
    close: () => {},
    lengths: (doc) => [doc, doc + 1, doc + 2],
    fieldLengths: (doc, into, at) => into.set([doc, doc + 1, doc + 2], at),
  });
  // Far-spread: a table over 2^31 ids would take 8 GB.
  for (const [name, far] of [
    ['dense', 500],
    ['far-spread', 2 ** 31],
  ] as const) {
    const a = seg(0, 100);
    const b = seg(far, 3_000);
    const buffers = process.memoryUsage().arrayBuffers;
    // An empty segment where another starts (no index writes one today) hides nothing.
    const read = new ReadDocs([b, seg(far, 0), a, seg(0, 0)]);
    assert.ok(
      process.memoryUsage().arrayBuffers - buffers < 64 << 20,
      `${name}: the table takes a few MB at most, not 4 bytes for each id of the range`,
    );
    // More docs than the first lengths buffer holds (1,024), in the order a query might read them.
    const order = [far + 2, 7, far + 2, 0, 99, ...Array.from({ length: 2_000 }, (_, i) => far + 2_999 - i)];
    for (const doc of order) read.add(doc);
    const distinct = [...new Set(order)];
    assert.deepEqual(read.docs, distinct, `${name}: each doc once, in the order first read`);
    distinct.forEach((doc, i) => {
      assert.equal(read.slot(doc), i, `${name}: slot of ${doc}`);
      assert.equal(read.segment(i), doc >= far ? b : a, `${name}: segment of ${doc}`);
      assert.deepEqual(
        [...read.lens.subarray(3 * i, 3 * i + 3)],
        [doc, doc + 1, doc + 2],
        `${name}: lengths of ${doc}`,
      );
    });
    assert.equal(read.slot(50), -1, `${name}: a doc not read has no slot`);
    assert.equal(read.nextId, far + 3_000);
    assert.throws(
      () => read.add(far + 3_000),
      /in no segment/,
      `${name}: a doc outside every segment is an error, not a wrong segment`,
    );
  }
});

test("the cut-off's selection gives the value a sort would put at that index, with ties, runs and any order", async () => {
  const fc = (await import('fast-check')).default;
  const values = fc.oneof(
    fc.float64Array({ noNaN: true, minLength: 1, maxLength: 300 }),
    // Few distinct values (tied scores), and sorted or reversed runs.
    fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 300 }).map((a) => Float64Array.from(a)),
    fc.integer({ min: 1, max: 300 }).map((n) => Float64Array.from({ length: n }, (_, i) => i)),
    fc.integer({ min: 1, max: 300 }).map((n) => Float64Array.from({ length: n }, (_, i) => n - i)),
  );
  fc.assert(
    fc.property(values, fc.nat(), (v, at) => {
      const k = at % v.length;
      const [got, want] = [nthSmallest(Float64Array.from(v), k), Float64Array.from(v).sort()[k]];
      // === : a sort puts -0 before 0, a selection needs not (the threshold is the same).
      assert.ok(got === want, `${got} at ${k}, a sort has ${want}`);
    }),
    { numRuns: 2_000 },
  );
});

test('the scan lists each file once, in key order: names that sort before "/", overlapping roots, an extra path before MEMORY.md', async (t) => {
  const { mkdirSync, writeFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { tempDir } = await import('./helpers/cli.js');
  const { scanWorkspace } = await import('../src/search/index/scan.js');
  const ws = tempDir(t, 'memfold-scan-order-');
  const files = [
    'MEMORY.md',
    'memory/a-b.md',
    'memory/a/x.md',
    'memory/a.md',
    'memory/b.md',
    'memory/notes/n.md',
    'Alpha/z.md',
  ];
  for (const f of files) {
    mkdirSync(join(ws, f, '..'), { recursive: true });
    writeFileSync(join(ws, f), '# x\n');
  }
  const keys = (extra: string[]) => scanWorkspace(ws, extra).map((f) => f.path);
  const sorted = (list: string[]) => [...list].sort();
  // Walked by name, memory/a/ comes before memory/a-b.md; by key, '-' sorts before '/'.
  assert.deepEqual(keys([]), sorted(files.filter((f) => f !== 'Alpha/z.md')));
  // memory/notes is inside memory/ (each of its files once); Alpha sorts before MEMORY.md.
  assert.deepEqual(keys(['memory/notes', 'Alpha']), sorted(files));
});

test("a disk segment finds a term's dictionary entry in its shard's text as parsing the shard would: keys inside other keys, quotes, backslashes and numbers", async (t) => {
  const { writeFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { tempDir } = await import('./helpers/cli.js');
  const { encodeSegment } = await import('../src/search/index/segment-builder.js');
  const { DiskSegment } = await import('../src/search/index/segment.js');
  const terms = ['term', 'xterm', 'x"term', '"term', 'a\\b', 'b', '1', '10', '缓存', 'te', '{', ','];
  const docs: BuiltDoc[] = terms.map((term, i) => ({
    record: { doc: i, path: 'memory/x.md', tier: 'warm', startLine: 1, endLine: 1, heading: '', text: term } as never,
    tokens: [[], Array(i + 1).fill(term), []],
  }));
  const enc = encodeSegment(docs, 0, 4096);
  const dir = tempDir(t, 'memfold-dict-');
  for (const ext of ['dict', 'post', 'didx', 'docs'] as const) writeFileSync(join(dir, `s.${ext}`), enc[ext]);
  const seg = DiskSegment.open(dir, 's', 0, docs.length);
  terms.forEach((term, i) => {
    assert.equal(seg.pairs(term), 1, term);
    // Its own run: the term said i + 1 times (a key found inside another key would give another count).
    assert.equal(seg.posting(term, 9)![1]! & 0xffffff, i + 1, term);
  });
  for (const absent of ['erm', 'x', 'term"', '\\', 'a', '0', '缓', 'xterm2'])
    assert.equal(seg.pairs(absent), 0, absent);
  seg.close();
});
