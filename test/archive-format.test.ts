/** The archive segment format, pure: postings round-trip exactly, by term and shard. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { snippet } from '../src/archive/search.js';
import { queryTerms } from '../src/search/tokenize.js';
import { liveDocs, MAX_SMALL, planCompaction, SMALL_BYTES } from '../src/archive/compact.js';
import { buildSegment, HEADER_BYTES, META_U32, shardOf, shardRange, termPostings, type ArchiveDoc } from '../src/archive/format.js';

const doc = (x: string, a: number, extra: Partial<ArchiveDoc> = {}): ArchiveDoc => ({ f: 1, s: 's1', a, b: a, t: '2026-11-21T10:00:00Z', o: 0, e: 10, x, ...extra });

test('every term of every doc is found in its shard with its frequency; purged docs have none', () => {
  const docs = [doc('pool pool timeout', 1), doc('connection pool 部署前', 2), doc('secret words', 3, { x: '', purged: true }), doc('timeouts', 4)];
  const seg = buildSegment(docs);
  const header = new Uint32Array(seg.post.buffer.slice(seg.post.byteOffset, seg.post.byteOffset + HEADER_BYTES));
  const lookup = (term: string) => {
    const [off, len] = shardRange(header, shardOf(term));
    return termPostings(Buffer.from(seg.post).subarray(off, off + len).toString('utf8'), term);
  };
  assert.deepEqual(lookup('pool'), [[0, 2], [1, 1]]);
  assert.deepEqual(lookup('timeout'), [[0, 1]], 'not confused with "timeouts"');
  assert.deepEqual(lookup('timeouts'), [[3, 1]]);
  assert.deepEqual(lookup('~timeo'), [[0, 1], [3, 1]], 'the stem of both');
  assert.deepEqual(lookup('部署'), [[1, 1]]);
  assert.deepEqual(lookup('secret'), []);
  const meta = new Uint32Array(seg.meta.buffer, seg.meta.byteOffset, docs.length * META_U32);
  const lines = seg.docs.split('\n');
  assert.equal(JSON.parse(Buffer.from(seg.docs).subarray(meta[META_U32]!, meta[META_U32]! + meta[META_U32 + 1]!).toString()).x, 'connection pool 部署前');
  assert.equal(lines.length, docs.length + 1);
  assert.equal(meta[2], 4, 'token count of doc 0: pool, pool, timeout and its stem');
  assert.equal(meta[3], Date.parse('2026-11-21T10:00:00Z') / 1000);
});

test('compaction merges the small segments once there are MAX_SMALL of them, and keeps only live windows', () => {
  const seg = (name: string, bytes: number) => ({ name, bytes });
  const small = Array.from({ length: MAX_SMALL - 1 }, (_, i) => seg(`s${i}`, 100));
  assert.deepEqual(planCompaction([seg('big', SMALL_BYTES), ...small]), [], 'one short of the limit: nothing');
  assert.deepEqual(planCompaction([seg('big', SMALL_BYTES), ...small, seg('last', SMALL_BYTES - 1)]), [...small.map((s) => s.name), 'last'], 'large segments stay');
  const docs = [doc('kept', 1), doc('retired file', 2, { f: 7 }), doc('', 3, { purged: true }), doc('kept too', 4)];
  assert.deepEqual(liveDocs(docs, new Set([1])).map((d) => d.a), [1, 4]);
});

test('an archive snippet shows the turns holding the query terms and the turn after each, Traditional and Simplified alike', () => {
  const text = 'first line\n[2] user: 我們決定放棄 Redis 快取\nsecond line of turn 2\n[3] assistant: fine, Memcached then\n[4] user: unrelated';
  // The turn holding the term, whole, and the answer after it; not the turns before or after those.
  assert.equal(snippet(text, queryTerms('决定')), '[2] user: 我們決定放棄 Redis 快取 … second line of turn 2 … [3] assistant: fine, Memcached then');
  assert.equal(snippet(text, queryTerms('unrelated')), '[4] user: unrelated');
  assert.equal(snippet(text, queryTerms('FIRST')), 'first line … [2] user: 我們決定放棄 Redis 快取 … second line of turn 2');
  assert.equal(snippet('a\nb', queryTerms('absent')), 'a … b', 'no line matches: the window');
});
