/**
 * Reading growing, hostile files: a trailing partial line is never consumed, an over-long line is
 * skipped in bounded memory, CRLF and invalid UTF-8 never break offsets or throw, timestamps in any
 * supported shape normalise to ISO UTC, and warnings stay capped.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openTranscript } from '../src/transcripts/index.js';
import { readLines } from '../src/transcripts/lines.js';
import { normalizeTimestamp } from '../src/transcripts/time.js';
import { collect, jsonl, put, ROOT, tempDir } from './helpers/transcripts-tmp.js';

const line = (text: string, timestamp: unknown = '2026-11-20T10:00:00Z') => ({
  role: 'user',
  content: text,
  timestamp,
  session_id: 's1',
});

test('a trailing line without "\\n" is not consumed, and is read once it is complete', async (t) => {
  const dir = tempDir(t);
  const path = put(dir, 'grow.jsonl', jsonl(line('one'), line('two')) + '{"role":"user","content":"thr');
  const complete = Buffer.byteLength(jsonl(line('one'), line('two')));
  const first = openTranscript(path, 'jsonl');
  assert.deepEqual(
    (await collect(first)).map((x) => x.text),
    ['one', 'two'],
  );
  assert.deepEqual([first.stats.endOffset, first.stats.malformed], [complete, 0]);
  assert.equal(first.stats.bytesRead, statSync(path).size, 'bytesRead counts what was read from disk');

  appendFileSync(path, 'ee","timestamp":"2026-11-20T10:00:00Z"}\n');
  const next = openTranscript(path, 'jsonl', { fromOffset: first.stats.endOffset, fromIndex: 2 });
  const turns = await collect(next);
  assert.deepEqual(
    turns.map((x) => [x.index, x.text]),
    [[3, 'three']],
  );
  assert.equal(next.stats.endOffset, statSync(path).size);
});

test('a 6 MB line is skipped with maxLineBytes 1 MB, and the lines around it are read', async (t) => {
  const dir = tempDir(t);
  const path = join(dir, 'long.jsonl');
  writeFileSync(path, jsonl(line('before')));
  appendFileSync(path, JSON.stringify(line('x'.repeat(6 * 1024 * 1024))) + '\n');
  appendFileSync(path, jsonl(line('after')));
  const stream = openTranscript(path, 'jsonl', { maxLineBytes: 1024 * 1024 });
  const turns = await collect(stream);
  assert.deepEqual(
    turns.map((x) => [x.index, x.text]),
    [
      [1, 'before'],
      [2, 'after'],
    ],
  );
  assert.deepEqual([stream.stats.skippedLong, stream.stats.malformed], [1, 0]);
  assert.match(
    stream.stats.warnings[0] ?? '',
    /long\.jsonl:2: line of \d+ bytes skipped \(over maxLineBytes 1048576\)/,
  );
  assert.equal(stream.stats.endOffset, statSync(path).size);
});

test('skipping a 6 MB line never holds more than maxLineBytes plus a chunk (child process, gc per chunk)', async (t) => {
  const dir = tempDir(t);
  const path = join(dir, 'long.jsonl');
  writeFileSync(path, 'short\n' + 'y'.repeat(6 * 1024 * 1024) + '\nlast\n');
  const probe = join(ROOT, 'test', 'helpers', 'transcripts-memprobe.ts');
  const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', probe, path, String(1024 * 1024)], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  const result = JSON.parse(out) as { growth: number; skipped: number; lines: number[] };
  assert.deepEqual([result.skipped, result.lines], [1, [5, 4]]);
  assert.ok(result.growth < 2.5 * 1024 * 1024, `live buffers grew by ${result.growth} bytes`);
});

test('CRLF line endings: text without "\\r", offsets in bytes including it', async (t) => {
  const dir = tempDir(t);
  const body = [line('héllo'), line('wörld')].map((l) => JSON.stringify(l)).join('\r\n') + '\r\n';
  const path = put(dir, 'crlf.jsonl', body);
  const turns = await collect(openTranscript(path, 'jsonl'));
  assert.deepEqual(
    turns.map((x) => x.text),
    ['héllo', 'wörld'],
  );
  assert.equal(turns[1]?.endOffset, Buffer.byteLength(body));
  const first = Buffer.from(body).subarray(0, turns[0]?.endOffset).toString();
  assert.ok(first.endsWith('"s1"}\r\n'));
});

test('invalid UTF-8 decodes with replacement characters and never throws', async (t) => {
  const dir = tempDir(t);
  const good = Buffer.from('{"role":"user","content":"caf');
  const bad = Buffer.from([0xff, 0xfe, 0xc3]);
  const rest = Buffer.from('","timestamp":"2026-11-20T10:00:00Z"}\n');
  const path = put(
    dir,
    'bad.jsonl',
    Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), good, bad, rest, bad, Buffer.from('\n')]),
  );
  const stream = openTranscript(path, 'jsonl');
  const turns = await collect(stream);
  assert.equal(turns[0]?.text, 'caf\uFFFD\uFFFD\uFFFD');
  assert.equal(stream.stats.malformed, 1, 'the garbage line is malformed, not fatal');
  const lines = [];
  for await (const l of readLines(path)) lines.push(l);
  assert.ok(lines[0]?.text.startsWith('{"role"'), 'a UTF-8 BOM at the file start is dropped');
});

test('timestamps: ISO with or without offset, epoch seconds, milliseconds, Date, garbage', () => {
  const cases: Array<[unknown, string | null]> = [
    ['2026-11-20T10:00:00Z', '2026-11-20T10:00:00.000Z'],
    ['2026-11-20T18:00:00+08:00', '2026-11-20T10:00:00.000Z'],
    ['2026-11-20T18:00:00+0800', '2026-11-20T10:00:00.000Z'],
    ['2026-11-20 10:00:00', '2026-11-20T10:00:00.000Z'],
    ['2026-11-20', '2026-11-20T00:00:00.000Z'],
    [1795168800, '2026-11-20T10:00:00.000Z'],
    ['1795168800', '2026-11-20T10:00:00.000Z'],
    [1795168800123, '2026-11-20T10:00:00.123Z'],
    [1795168800.5, '2026-11-20T10:00:00.500Z'],
    [new Date('2026-11-20T10:00:00Z'), '2026-11-20T10:00:00.000Z'],
    ['yesterday', null],
    ['2', null],
    ['1999-12-31T23:59:59Z', null],
    [4102444800000, null],
    [-5, null],
    [undefined, null],
    [{}, null],
  ];
  for (const [input, expected] of cases) assert.equal(normalizeTimestamp(input), expected, String(input));
});

test('missing or unparseable timestamps take the fallback, counted per line with one warning', async (t) => {
  const dir = tempDir(t);
  const path = put(
    dir,
    'untimed.jsonl',
    jsonl({ role: 'user', content: 'a' }, line('b', 'not a time'), line('c'), { role: 'user', content: 'd' }),
  );
  const fallback = '2026-11-21T23:59:59.000Z';
  const stream = openTranscript(path, 'jsonl', { fallbackTimestamp: fallback });
  const turns = await collect(stream);
  assert.deepEqual(
    turns.map((x) => x.timestamp),
    [fallback, fallback, '2026-11-20T10:00:00.000Z', fallback],
  );
  assert.equal(stream.stats.untimed, 3);
  assert.deepEqual(stream.stats.warnings, [`${path}: 3 lines had no usable timestamp; used ${fallback}`]);
  assert.equal(turns[0]?.sessionId, 'untimed', 'no session_id: the file name');
  const bare = await collect(openTranscript(path, 'jsonl'));
  assert.equal(bare[0]?.timestamp, null, 'no fallback given: null');
});

test('malformed lines are counted, skipped and warned about with file and line, capped at 20 + a count', async (t) => {
  const dir = tempDir(t);
  const bad = [
    '{nope',
    '[1,2]',
    '"str"',
    'null',
    JSON.stringify({ role: 'narrator', content: 'x' }),
    JSON.stringify({ role: 'user', content: 42 }),
  ];
  const lines = [line('ok'), ...Array.from({ length: 30 }, (_, i) => bad[i % bad.length]), line('still ok')];
  const path = put(dir, 'bad.jsonl', jsonl(...lines) + '\n\n');
  const stream = openTranscript(path, 'jsonl');
  const turns = await collect(stream);
  assert.deepEqual(
    turns.map((x) => [x.index, x.text]),
    [
      [1, 'ok'],
      [2, 'still ok'],
    ],
  );
  assert.equal(stream.stats.malformed, 30);
  assert.equal(stream.stats.warnings.length, 21);
  assert.equal(stream.stats.warnings[0], `${path}:2: malformed line skipped: invalid JSON`);
  assert.equal(stream.stats.warnings[1], `${path}:3: malformed line skipped: not a JSON object`);
  assert.match(
    stream.stats.warnings[4] ?? '',
    /:6: malformed line skipped: "role" must be one of user, assistant, tool, system/,
  );
  assert.equal(stream.stats.warnings[20], `${path}: … and 10 more warnings`);
  const resumed = openTranscript(path, 'jsonl', { fromOffset: turns[0]?.endOffset ?? 0, fromIndex: 1 });
  await collect(resumed);
  assert.match(resumed.stats.warnings[0] ?? '', /bad\.jsonl \(byte \d+\): malformed line skipped/);
});

test('stopping early leaves a consistent cursor: the last turn taken tells where to resume', async (t) => {
  const dir = tempDir(t);
  const path = put(dir, 'early.jsonl', jsonl(line('a'), line('b'), line('c')));
  const stream = openTranscript(path, 'jsonl');
  let last;
  for await (const turn of stream.turns) {
    last = turn;
    if (turn.index === 2) break;
  }
  const rest = await collect(
    openTranscript(path, 'jsonl', { fromOffset: last?.endOffset ?? 0, fromIndex: last?.index ?? 0 }),
  );
  assert.deepEqual(
    rest.map((x) => [x.index, x.text]),
    [[3, 'c']],
  );
});
