/**
 * A JSONL file whose last line has no final newline: held back while the file is still being written,
 * read once it has been idle (the same 5 minutes as a Markdown transcript's last turn) when it is whole
 * JSON, and never read twice: a later append that adds the newline and more lines, or more lines
 * straight after it, resumes exactly after it. The reader directly and the built CLI.
 */
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openTranscript } from '../src/transcripts/index.js';
import { entryIds, mem, transcriptWorkspace } from './helpers/cli.js';
import { collect, jsonl, put, tempDir } from './helpers/transcripts-tmp.js';

const line = (text: string, time = '2026-11-24T10:00:00Z') => ({
  role: 'user',
  content: text,
  timestamp: time,
  session_id: 's1',
  cwd: '/home/dev/ledgerline',
});

test('an unterminated last line is held back while growing, read when idle, and a later append resumes after it', async (t) => {
  const dir = tempDir(t);
  const head = jsonl(line('one'), line('two'));
  const path = put(dir, 'tail.jsonl', head + JSON.stringify(line('three')));
  const size = statSync(path).size;

  const growing = openTranscript(path, 'jsonl', { growing: true });
  assert.deepEqual(
    (await collect(growing)).map((x) => x.text),
    ['one', 'two'],
  );
  assert.equal(growing.stats.endOffset, Buffer.byteLength(head));

  const idle = openTranscript(path, 'jsonl');
  const turns = await collect(idle);
  assert.deepEqual(
    turns.map((x) => [x.index, x.text, x.endOffset]),
    [
      [1, 'one', Buffer.byteLength(jsonl(line('one')))],
      [2, 'two', Buffer.byteLength(head)],
      [3, 'three', size],
    ],
  );
  assert.deepEqual([idle.stats.endOffset, idle.stats.malformed], [size, 0]);

  // Read as context up to that cursor (microsync re-reads the turns before it): the line is there.
  const before = await collect(
    openTranscript(path, 'jsonl', { fromOffset: Buffer.byteLength(head), toOffset: size, fromIndex: 2 }),
  );
  assert.deepEqual(
    before.map((x) => [x.index, x.text]),
    [[3, 'three']],
  );

  appendFileSync(path, '\n' + jsonl(line('four'), line('five')));
  const next = openTranscript(path, 'jsonl', { fromOffset: size, fromIndex: 3 });
  assert.deepEqual(
    (await collect(next)).map((x) => [x.index, x.text]),
    [
      [4, 'four'],
      [5, 'five'],
    ],
  );
  assert.deepEqual([next.stats.endOffset, next.stats.malformed], [statSync(path).size, 0]);
  assert.deepEqual(
    (await collect(openTranscript(path, 'jsonl'))).map((x) => x.text),
    ['one', 'two', 'three', 'four', 'five'],
    'a full read agrees',
  );
});

test('lines appended straight after an unterminated last line are read from the cursor, whole', async (t) => {
  const path = put(tempDir(t), 'glued.jsonl', jsonl(line('one')) + JSON.stringify(line('two')));
  const first = openTranscript(path, 'jsonl');
  assert.deepEqual(
    (await collect(first)).map((x) => x.text),
    ['one', 'two'],
  );
  appendFileSync(path, jsonl(line('three')));
  const next = openTranscript(path, 'jsonl', { fromOffset: first.stats.endOffset, fromIndex: 2 });
  assert.deepEqual(
    (await collect(next)).map((x) => [x.index, x.text]),
    [[3, 'three']],
  );
  assert.equal(next.stats.malformed, 0);
});

test('an idle unterminated line that is not whole JSON is neither read nor counted: its rest may still come', async (t) => {
  const path = put(tempDir(t), 'cut.jsonl', jsonl(line('one')) + '{"role":"user","content":"tw');
  const stream = openTranscript(path, 'jsonl');
  assert.deepEqual(
    (await collect(stream)).map((x) => x.text),
    ['one'],
  );
  assert.deepEqual([stream.stats.endOffset, stream.stats.malformed], [Buffer.byteLength(jsonl(line('one'))), 0]);
});

test('microsync: the unterminated last line of an idle file lands once; the append after it lands once; a growing file waits', async (t) => {
  const { ws, tr } = await transcriptWorkspace(t, 'jsonl');
  const file = join(tr, 'standup.jsonl');
  writeFileSync(
    file,
    jsonl(line('We decided to ship releases on Tuesdays.', '2026-11-24T10:00:00Z')) +
      JSON.stringify(line('From now on, every migration needs a rollback script.', '2026-11-24T10:01:00Z')),
  );
  const touch = (iso: string) => utimesSync(file, new Date(iso), new Date(iso));
  const run = async (now: string) => {
    const r = await mem(['-C', ws, '--json', 'microsync', '--no-llm', '--now', now]);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /malformed|invalid JSON/i);
    return r;
  };
  const cursor = () =>
    (
      JSON.parse(readFileSync(join(ws, '.mem', 'cursors.json'), 'utf8')) as {
        files: Record<string, { offset: number; turns: number }>;
      }
    ).files[file]!;

  touch('2026-11-24T10:01:00Z');
  await run('2026-11-24T10:03:00Z'); // written 2 minutes ago: the last line may still be growing
  assert.deepEqual(entryIds(ws), ['DECISION-20261124-ship-releases-on-tuesdays']);
  assert.equal(cursor().turns, 1);

  await run('2026-11-24T10:07:00Z'); // idle for 6 minutes: the line is read
  assert.deepEqual(entryIds(ws).sort(), [
    'DECISION-20261124-ship-releases-on-tuesdays',
    'RULE-20261124-every-migration-needs-a-rollback-script',
  ]);
  assert.deepEqual([cursor().offset, cursor().turns], [statSync(file).size, 2]);

  appendFileSync(file, '\n' + jsonl(line('Remember this: the staging database is db-stg-2.', '2026-11-24T11:00:00Z')));
  touch('2026-11-24T11:00:00Z');
  await run('2026-11-24T11:30:00Z');
  assert.equal(entryIds(ws).length, 3, entryIds(ws).join(', '));
  assert.deepEqual([cursor().offset, cursor().turns], [statSync(file).size, 3]);
  assert.match(readFileSync(join(ws, 'memory', '2026-11-24.md'), 'utf8'), /message_range: 3-3/);

  const again = await mem([
    '-C',
    ws,
    '--json',
    'microsync',
    '--since',
    'all',
    '--no-llm',
    '--now',
    '2026-11-24T11:30:00Z',
  ]);
  assert.equal(again.code, 0, again.stderr);
  assert.deepEqual(
    (JSON.parse(again.stdout) as { added: unknown[] }).added,
    [],
    'read from the start, the file gives the same three statements',
  );
});

test('microsync --since all reads the unterminated last line of an idle file', async (t) => {
  const { ws, tr } = await transcriptWorkspace(t, 'jsonl');
  writeFileSync(
    join(tr, 'once.jsonl'),
    JSON.stringify(line('We decided to keep the audit log for 400 days.', '2026-11-24T10:00:00Z')),
  );
  const r = await mem(['-C', ws, 'microsync', '--since', 'all', '--no-llm', '--now', '2026-11-25T10:00:00Z']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(entryIds(ws), ['DECISION-20261124-keep-the-audit-log-for-400-days']);
});
