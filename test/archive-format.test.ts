/** The archive segment format, pure: windows are memory-index segments, ranked by the one lexical engine. */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { snippet } from '../src/archive/snippet.js';
import { liftByNeighbours } from '../src/search/query/neighbours.js';
import { queryTerms, tokenize } from '../src/search/text/tokenize.js';
import { liveDocs, MAX_SMALL, planCompaction, SMALL_BYTES } from '../src/archive/compact.js';
import { asWindow, type ArchiveDoc } from '../src/archive/format.js';
import { ArchiveSegmentWriter } from '../src/archive/segment-writer.js';
import {
  emptyState,
  loadState,
  openSegment,
  readMeta,
  segmentDamage,
  type ArchiveState,
} from '../src/archive/store.js';
import { openArchiveView } from '../src/archive/view.js';
import { lexicalSearch } from '../src/search/query/engine.js';
import { MemorySegment } from '../src/search/index/segment.js';
import type { DocRecord } from '../src/search/text/types.js';
import { WorkspaceWriter } from '../src/write/writer.js';
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
const SECS = Date.parse('2026-11-21T10:00:00Z') / 1000;

async function writeArchive(ws: string, segments: ArchiveDoc[][], files: number[]): Promise<ArchiveState> {
  const writer = new WorkspaceWriter(ws, 'index', { waitMs: 1000, staleMs: 10_000 });
  const state = emptyState();
  for (const docs of segments) {
    const seg = new ArchiveSegmentWriter(`seg-00000${state.nextSegment++}`, state.nextDoc);
    for (const d of docs) seg.add(d);
    const entry = await seg.finish(writer);
    state.nextDoc += entry.docs;
    state.segments.push(entry);
  }
  for (const no of files)
    state.files[`/t/${no}.jsonl`] = { no, source: 'cc', kind: 'claude-code', sessionId: `s${no}`, cursor: {} as never };
  return state;
}

test('archive windows are memory-index segments: body postings with their frequencies, meta rows, tombstones without terms', async (t) => {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'mem-archseg-'));
  t.after(() => fs.rmSync(ws, { recursive: true, force: true }));
  const docs = [
    doc('pool pool timeout', 1),
    doc('connection pool 部署前', 2),
    doc('', 3, { purged: true }),
    doc('timeouts', 4),
  ];
  const state = await writeArchive(ws, [docs], [1]);
  const seg = openSegment(ws, state.segments[0]!);
  t.after(() => seg.close());
  const pairs = (term: string) => Array.from(seg.posting(term, 100) ?? []);
  // (doc, field << 24 | tf): the body is field 1.
  assert.deepEqual(pairs('pool'), [0, (1 << 24) | 2, 1, (1 << 24) | 1]);
  assert.deepEqual(pairs('timeout'), [0, (1 << 24) | 1], 'not confused with "timeouts"');
  assert.deepEqual(pairs('~timeo'), [0, (1 << 24) | 1, 3, (1 << 24) | 1], 'the stem of both');
  assert.deepEqual(pairs('部署'), [1, (1 << 24) | 1]);
  assert.deepEqual(pairs('部'), [1, (1 << 24) | 1], 'a lone Han character finds the window, as in memory');
  assert.deepEqual(seg.lengths(0), [0, 4, 0], 'pool, pool, timeout and its stem; no title or id');
  assert.equal(seg.lengths(2)[1], 0, 'a tombstone has no terms');
  assert.deepEqual(asWindow(seg.record(1)), docs[1]);
  assert.deepEqual(
    Array.from(readMeta(ws, state.segments[0]!)),
    [SECS, 1, SECS, 1, SECS, 0, SECS, 1],
    "each window's time and file; 0 for a purged one",
  );
});

test("the archive's BM25 is the engine's over its live windows: retired files' and purged windows count nowhere", async (t) => {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'mem-archview-'));
  t.after(() => fs.rmSync(ws, { recursive: true, force: true }));
  const live = [doc('the ledger export failed twice', 1), doc('ledger totals checked', 2, { f: 2 })];
  const gone = [doc('ledger ledger ledger', 3, { f: 9 }), doc('', 4, { purged: true })];
  // File 9 is retired (not in the state's files); the tombstone is dead wherever it is.
  const state = await writeArchive(
    ws,
    [
      [live[0]!, gone[0]!],
      [gone[1]!, live[1]!],
    ],
    [1, 2],
  );
  const av = openArchiveView(ws, state);
  t.after(() => av.close());
  assert.equal(av.view.docCount, 2);
  assert.deepEqual(av.view.dead, [[1, 2]]);
  const terms = queryTerms('ledger export');
  const got = lexicalSearch(av.view, terms, 10).map((h) => [asWindow(h.segment.record(h.doc)).a, h.score]);
  // The same two windows alone, as a rebuilt archive would hold them.
  const mem = new MemorySegment(
    live.map((d, i) => ({ record: { ...d, doc: i } as unknown as DocRecord, tokens: [[], tokenize(d.x, true), []] })),
    0,
  );
  const lenSum = mem.lenSum;
  const alone = lexicalSearch(
    { segments: [mem], isDead: () => false, dead: [], docCount: 2, avgLen: [1, lenSum[1] / 2, 1] },
    terms,
    10,
  ).map((h) => [(h.segment.record(h.doc) as unknown as ArchiveDoc).a, h.score]);
  assert.deepEqual(got, alone);
  assert.deepEqual(
    got.map(([a]) => a),
    [1, 2],
  );
});

test('a state entry cut short or a state of the wrong shape is damage or no state, never a crash', async (t) => {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'mem-archstate-'));
  t.after(() => fs.rmSync(ws, { recursive: true, force: true }));
  const state = await writeArchive(ws, [[doc('pool', 1)]], [1]);
  const entry = state.segments[0]!;
  assert.equal(segmentDamage(ws, entry), null);
  assert.match(segmentDamage(ws, { ...entry, bytes: undefined as never })!, /file sizes in state\.json are incomplete/);
  assert.match(segmentDamage(ws, { ...entry, first: -1 })!, /entry in state\.json is incomplete/);
  fs.truncateSync(path.join(ws, '.mem', 'archive', `${entry.name}.meta`), 4);
  assert.match(segmentDamage(ws, entry)!, /\.meta: 4 bytes, expected 8 bytes/);
  fs.writeFileSync(path.join(ws, '.mem', 'archive', 'state.json'), JSON.stringify({ ...state, files: null }));
  assert.equal(loadState(ws), undefined);
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

test("an archive snippet shows the turns holding the query terms and the turns after each up to the other side's, across a window boundary, Traditional and Simplified alike", () => {
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
  // A question's answer after a second message of the asker's, in the next window: shown, read only when needed.
  const reads: number[] = [];
  const next = () => (reads.push(1), '[5] assistant: warmup was 0 steps\n[6] user: ok');
  assert.equal(
    snippet('[3] user: the NaN loss\n[4] user: lunch first', queryTerms('NaN loss'), next),
    '[3] user: the NaN loss … [4] user: lunch first … [5] assistant: warmup was 0 steps',
  );
  assert.equal(
    snippet('[1] user: NaN\n[2] user: a\n[3] user: b\n[4] user: c', queryTerms('NaN'), next),
    '[1] user: NaN … [2] user: a … [3] user: b',
  );
  assert.equal(reads.length, 1, 'the next window is read only for a match near the end');
});

test('a window whose neighbour in the same transcript also matches is lifted above one that matches alone', () => {
  // Docs 1 and 2 are consecutive windows of one transcript (each holds half of the question), 3 another's.
  const lex = [
    { doc: 3, score: 5.2 },
    { doc: 1, score: 4 },
    { doc: 2, score: 3 },
    { doc: 7, score: 1 },
  ];
  const run = (d: number) => (d <= 2 ? 'a' : d === 3 ? 'b' : 'c');
  const lifted = liftByNeighbours(lex, (doc, other) => run(doc) === run(other));
  assert.deepEqual(
    lifted.map((h) => h.doc),
    [1, 3, 2, 7],
  );
  assert.equal(lifted.find((h) => h.doc === 7)!.score, 1, 'no ranked neighbour: its own score');
});
