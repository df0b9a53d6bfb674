/** Pure parts of search: tokenizer, folding, windows, chunker, globs, fusion. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { tokenize, queryTerms } from '../src/search/tokenize.js';
import { fold } from '../src/search/fold.js';
import { lineWindows } from '../src/search/windows.js';
import { chunkMarkdown } from '../src/search/chunk.js';
import { globToRegExp, makeFilter } from '../src/search/filter.js';
import { rrf, recencyBoost, statusBoost } from '../src/search/rank.js';
import { successorsFirst, type SearchResult } from '../src/search/search.js';

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

test('query terms are distinct and bounded for a huge query', () => {
  assert.deepEqual(queryTerms('redis Redis REDIS'), ['redis']);
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
  for (let i = 1; i < w.length; i++) assert.ok(w[i]!.from <= w[i - 1]!.to && w[i]!.from > w[i - 1]!.from, 'overlapping, advancing');
  assert.deepEqual(lineWindows(['short'], 60, 12), [{ from: 0, to: 0 }]);
});

test('chunker: one chunk per entry with its fields, sections, MEMORY.md items, front matter, code fences', () => {
  const daily = '# 2026-11-21\n\n## Decision: Keep SQLite\n- id: DECISION-20261121-keep-sqlite\n- date: 2026-11-21\n- status: superseded\n- source:\n  - session_id: abc\n  - session_path: ~/x.jsonl\n  - message_range: 1-2\n\n```md\n## Rule: not a heading\n```\n\n## Note: second\n- id: NOTE-20261121-second\n';
  const chunks = chunkMarkdown('memory/2026-11-21.md', daily, { chunkTokens: 400, overlapTokens: 80, listItems: false });
  const entries = chunks.filter((c) => c.entryId);
  assert.deepEqual(entries.map((c) => [c.heading, c.startLine, c.endLine, c.status]), [
    ['Decision: Keep SQLite', 3, 14, 'superseded'],
    ['Note: second', 16, 17, 'active'],
  ]);
  assert.deepEqual(entries[0]!.source, { session_id: 'abc', session_path: '~/x.jsonl', message_range: '1-2' });
  const memory = chunkMarkdown('MEMORY.md', '# Memory\n\n## Rules\n- one rule\n- two rule\n', { chunkTokens: 400, overlapTokens: 80, listItems: true });
  assert.deepEqual(memory.filter((c) => c.text.startsWith('- ')).map((c) => [c.heading, c.startLine]), [['Rules', 4], ['Rules', 5]]);
  const fm = chunkMarkdown('second-brain/x.md', '---\ntitle: Hello\ndate: 2026-01-02\ntags: [a, b]\n---\nbody text\n', { chunkTokens: 400, overlapTokens: 80, listItems: false });
  assert.deepEqual([fm[0]!.title, fm[0]!.date, fm[0]!.tags, fm[0]!.startLine, fm[0]!.text], ['Hello', '2026-01-02', 'a b', 6, 'body text']);
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
  const r = { kind: 'Decision', status: 'active', date: '2026-11-21', scope: 'project:shop', path: 'memory/a.md' } as never;
  assert.equal(makeFilter({ kind: 'decision', since: '2026-11-01', until: '2026-11-30', scope: 'PROJECT:shop' })(r), true);
  assert.equal(makeFilter({ since: '2026-11-22' })(r), false);
  assert.equal(makeFilter({ status: 'superseded' })(r), false);
});

test('reciprocal-rank fusion and boosts', () => {
  const fused = rrf([[{ doc: 1, score: 9 }, { doc: 2, score: 5 }], [{ doc: 2, score: 0.9 }, { doc: 3, score: 0.8 }]]);
  assert.equal(fused.get(2), 1 / 62 + 1 / 61);
  assert.ok(fused.get(2)! > fused.get(1)!);
  assert.ok(recencyBoost('2026-11-21', '2026-11-22') > recencyBoost('2025-11-21', '2026-11-22'));
  assert.ok(statusBoost('superseded') < statusBoost('active'));
  const r = (id: string, supersededBy: string | null = null) => ({ id, supersededBy }) as SearchResult;
  assert.deepEqual(successorsFirst([r('OLD', 'NEW'), r('X'), r('NEW')]).map((x) => x.id), ['X', 'NEW', 'OLD']);
});

test('the line-scan fast path finds the same sections as remark on plain Markdown', async () => {
  const { readFileSync, readdirSync } = await import('node:fs');
  const { join } = await import('node:path');
  const dir = join(import.meta.dirname, 'fixtures', 'search', 'quality', 'workspace', 'memory');
  const samples = readdirSync(dir).filter((n) => n.endsWith('.md')).map((n) => readFileSync(join(dir, n), 'utf8'));
  samples.push('# T\n\ntext\n\n```sh\n# not a heading\n## Rule: nor this\n```\n\n### Sub\nmore\n\n## Decision: x\n- id: D-1\n### inside the entry\n- why: y\n# Top\nend\n');
  assert.ok(samples.length >= 3);
  for (const text of samples) {
    const o = { chunkTokens: 120, overlapTokens: 20, listItems: false };
    assert.deepEqual(chunkMarkdown('memory/x.md', text, { ...o, parser: 'headings' }), chunkMarkdown('memory/x.md', text, { ...o, parser: 'remark' }));
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
  visit(join(src, 'commands', 'search.ts'));
  visit(join(src, 'search', 'search.ts'));
  visit(join(src, 'search', 'embed-query.ts'));
  assert.ok(seen.size > 10, 'walked the graph');
  assert.ok(packages.has('minisearch'));
  for (const heavy of ['remark-parse', 'unified', 'gray-matter', 'openai', 'chokidar']) assert.ok(!packages.has(heavy), `${heavy} is imported: ${[...packages].join(', ')}`);
});
