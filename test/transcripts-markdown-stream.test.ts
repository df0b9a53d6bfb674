/**
 * The Markdown reader streams: a turn comes out once the next heading closes it, long before the
 * file's end is read, and the turns, offsets and stats are what a whole-file read gave. (Read whole,
 * an 8 MB export held ~45 MB of line objects, and `mem archive --rebuild`'s memory grew with it.)
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openTranscript, type Turn } from '../src/transcripts/index.js';
import { collect, put, tempDir } from './helpers/transcripts-tmp.js';

/** A transcript of `n` turns, with each turn's text and where its last non-blank line ends. */
function transcript(n: number): { md: string; want: Array<Pick<Turn, 'role' | 'text' | 'endOffset' | 'timestamp'>> } {
  let md = '---\nsession_id: md-stream\nstarted_at: 2026-11-21T09:00:00Z\n---\n\n# export\n\n';
  const want: Array<Pick<Turn, 'role' | 'text' | 'endOffset' | 'timestamp'>> = [];
  for (let i = 0; i < n; i++) {
    const role = i % 2 ? 'assistant' : 'user';
    const timed = i % 3 !== 2;
    const body =
      i === 7
        ? `fenced ${i}\n\`\`\`\n## user\n\`\`\``
        : `turn ${i} about the connection pool ${'and its timeout '.repeat(20).trim()}`;
    md += `## ${role}${timed ? ` · 2026-11-21T10:${String(i % 60).padStart(2, '0')}:00Z` : ''}\n\n${body}\n`;
    want.push({
      role,
      text: body,
      endOffset: Buffer.byteLength(md),
      timestamp: timed ? `2026-11-21T10:${String(i % 60).padStart(2, '0')}:00.000Z` : '2026-11-21T09:00:00.000Z',
    });
    md += '\n';
  }
  return { md, want };
}

test('markdown: turns stream out before the file is read, the same turns, offsets and stats as a whole read', async (t) => {
  const dir = tempDir(t);
  const { md, want } = transcript(1500);
  const size = Buffer.byteLength(md);
  assert.ok(size > 500_000);
  const path = put(dir, 'big.md', md);
  const stream = openTranscript(path, 'markdown', { zone: 'UTC' });
  const turns: Turn[] = [];
  let readAtFirst = -1;
  for await (const turn of stream.turns) {
    if (readAtFirst < 0) readAtFirst = stream.stats.bytesRead;
    turns.push(turn);
  }
  assert.ok(readAtFirst <= 128 * 1024, `the first turn came after ${readAtFirst} of ${size} bytes were read`);
  assert.deepEqual(
    turns.map((x) => ({ role: x.role, text: x.text, endOffset: x.endOffset, timestamp: x.timestamp })),
    want,
  );
  assert.deepEqual(
    turns.map((x) => x.index),
    want.map((_, i) => i + 1),
  );
  assert.ok(turns.every((x) => x.sessionId === 'md-stream'));
  assert.deepEqual([stream.stats.bytesRead, stream.stats.endOffset, stream.stats.sessionId], [size, size, 'md-stream']);

  // Still being written: the last turn waits, and the cursor stays before it.
  const growing = openTranscript(path, 'markdown', { zone: 'UTC', growing: true });
  const early = await collect(growing);
  assert.equal(early.length, want.length - 1);
  assert.equal(growing.stats.endOffset, want.at(-2)!.endOffset);

  // Front matter never closed: every line is body, as in a whole-file parse; a bad one is reported once.
  const open = openTranscript(put(dir, 'open.md', '---\ntitle: x\n## user\nhi\n## assistant\nyes'), 'markdown');
  assert.deepEqual(
    (await collect(open)).map((x) => [x.role, x.text]),
    [
      ['user', 'hi'],
      ['assistant', 'yes'],
    ],
  );
  const bad = openTranscript(put(dir, 'bad.md', '---\nsession_id: [unclosed\n---\n'), 'markdown');
  assert.deepEqual(await collect(bad), []);
  assert.equal(bad.stats.malformed, 1);
  assert.equal(bad.stats.endOffset, Buffer.byteLength('---\nsession_id: [unclosed\n---\n'));
});
