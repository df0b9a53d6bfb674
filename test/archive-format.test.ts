/** The archive segment format, pure: postings round-trip exactly, by term and shard. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { snippet } from '../src/archive/search.js';
import { queryTerms } from '../src/search/text/tokenize.js';
import { liveDocs, MAX_SMALL, planCompaction, SMALL_BYTES } from '../src/archive/compact.js';
import {
  buildSegment,
  HEADER_BYTES,
  META_U32,
  shardOf,
  shardRange,
  termPostings,
  type ArchiveDoc,
} from '../src/archive/format.js';

const doc = (x: string, a: number, extra: Partial<ArchiveDoc> = {}): ArchiveDoc => ({
  f: 1,
  s: 's1',
  a,
  b: a,
  t: '2026-11-21T10:00:00Z',
  o: 0,
  e: 10,
  x,
  ...extra,
});

test('every term of every doc is found in its shard with its frequency; purged docs have none', () => {
  const docs = [
    doc('pool pool timeout', 1),
    doc('connection pool 部署前', 2),
    doc('secret words', 3, { x: '', purged: true }),
    doc('timeouts', 4),
  ];
  const seg = buildSegment(docs);
  const header = new Uint32Array(seg.post.buffer.slice(seg.post.byteOffset, seg.post.byteOffset + HEADER_BYTES));
  const lookup = (term: string) => {
    const [off, len] = shardRange(header, shardOf(term));
    return termPostings(
      Buffer.from(seg.post)
        .subarray(off, off + len)
        .toString('utf8'),
      term,
    );
  };
  assert.deepEqual(lookup('pool'), [
    [0, 2],
    [1, 1],
  ]);
  assert.deepEqual(lookup('timeout'), [[0, 1]], 'not confused with "timeouts"');
  assert.deepEqual(lookup('timeouts'), [[3, 1]]);
  assert.deepEqual(
    lookup('~timeo'),
    [
      [0, 1],
      [3, 1],
    ],
    'the stem of both',
  );
  assert.deepEqual(lookup('部署'), [[1, 1]]);
  assert.deepEqual(lookup('secret'), []);
  const meta = new Uint32Array(seg.meta.buffer, seg.meta.byteOffset, docs.length * META_U32);
  const lines = seg.docs.split('\n');
  assert.equal(
    JSON.parse(
      Buffer.from(seg.docs)
        .subarray(meta[META_U32]!, meta[META_U32]! + meta[META_U32 + 1]!)
        .toString(),
    ).x,
    'connection pool 部署前',
  );
  assert.equal(lines.length, docs.length + 1);
  assert.equal(meta[2], 4, 'token count of doc 0: pool, pool, timeout and its stem');
  assert.equal(meta[3], Date.parse('2026-11-21T10:00:00Z') / 1000);
});

test('compaction merges the small segments once there are MAX_SMALL of them, and keeps only live windows', () => {
  const seg = (name: string, bytes: number) => ({ name, bytes });
  const small = Array.from({ length: MAX_SMALL - 1 }, (_, i) => seg(`s${i}`, 100));
  assert.deepEqual(planCompaction([seg('big', SMALL_BYTES), ...small]), [], 'one short of the limit: nothing');
  assert.deepEqual(
    planCompaction([seg('big', SMALL_BYTES), ...small, seg('last', SMALL_BYTES - 1)]),
    [...small.map((s) => s.name), 'last'],
    'large segments stay',
  );
  const docs = [doc('kept', 1), doc('retired file', 2, { f: 7 }), doc('', 3, { purged: true }), doc('kept too', 4)];
  assert.deepEqual(
    liveDocs(docs, new Set([1])).map((d) => d.a),
    [1, 4],
  );
});

test('an archive snippet shows the turns holding the query terms and the turn after each, Traditional and Simplified alike', () => {
  const text =
    'first line\n[2] user: 我們決定放棄 Redis 快取\nsecond line of turn 2\n[3] assistant: fine, Memcached then\n[4] user: unrelated';
  // The turn holding the term, whole, and the answer after it; not the turns before or after those.
  assert.equal(
    snippet(text, queryTerms('决定')),
    '[2] user: 我們決定放棄 Redis 快取 … second line of turn 2 … [3] assistant: fine, Memcached then',
  );
  assert.equal(snippet(text, queryTerms('unrelated')), '[4] user: unrelated');
  assert.equal(
    snippet(text, queryTerms('FIRST')),
    'first line … [2] user: 我們決定放棄 Redis 快取 … second line of turn 2',
  );
  assert.equal(snippet('a\nb', queryTerms('absent')), 'a … b', 'no line matches: the window');
});

test('a segment streamed to disk (postings spilled per shard) is byte for byte the one built in memory', async () => {
  const fs = await import('node:fs');
  const os = await import('node:os');
  const path = await import('node:path');
  const { WorkspaceWriter } = await import('../src/write/writer.js');
  const { SegmentStream } = await import('../src/archive/segment-stream.js');
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'mem-segstream-'));
  try {
    const words = ['pool', 'timeout', 'deploy', '部署', '缓存', 'retry', 'nginx', 'grpc', 'ledger', 'worker'];
    // Enough postings to spill every shard's buffer several times (SPILL_CHARS is 256 K).
    const docs = Array.from({ length: 4000 }, (_, i) =>
      doc(
        Array.from({ length: 40 }, (_, j) => `${words[(i * 7 + j) % 10]}${(i * j) % 97}`).join(' '),
        i + 1,
        i % 50 === 0 ? { x: '', purged: true } : {},
      ),
    );
    const seg = await SegmentStream.open(
      new WorkspaceWriter(ws, 'index', { waitMs: 1000, staleMs: 10_000 }),
      'seg-000001',
    );
    for (const d of docs) seg.add(d);
    const { tokens } = await seg.finish();
    const want = buildSegment(docs);
    const read = (ext: string) => fs.readFileSync(path.join(ws, '.mem', 'archive', `seg-000001.${ext}`));
    assert.equal(read('docs.jsonl').toString(), want.docs);
    assert.ok(read('meta.bin').equals(Buffer.from(want.meta)));
    assert.ok(read('post').equals(Buffer.from(want.post)));
    assert.equal(tokens, want.tokens);
    assert.deepEqual(
      fs.readdirSync(path.join(ws, '.mem', 'archive')).sort(),
      ['seg-000001.docs.jsonl', 'seg-000001.meta.bin', 'seg-000001.post'],
      'no spill or temp file left',
    );
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
  }
});
