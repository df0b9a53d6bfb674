/**
 * secretsInChunks (jobs/secret-windows.ts) finds in windows exactly what one scan of the whole text
 * finds, on the same lines, however the text arrives in chunks and wherever a window is cut: a
 * secret across a cut, and a label in one window with its value in the next, are still found.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findSecrets } from '../src/secrets/secrets.js';
import { secretsInChunks, type WindowHit, type WindowSizes } from '../src/jobs/secret-windows.js';
import { SECRET_SAMPLES } from './fixtures/secrets/corpus.js';

function whole(text: string): WindowHit[] {
  return findSecrets(text.replaceAll('\0', ' ')).map((f) => ({
    line: text.slice(0, f.start).split('\n').length,
    kind: f.kind,
  }));
}

async function windowed(text: string, chunk: number, sizes: WindowSizes): Promise<WindowHit[]> {
  async function* chunks() {
    for (let i = 0; i < text.length; i += chunk) yield text.slice(i, i + chunk);
  }
  const hits: WindowHit[] = [];
  for await (const h of secretsInChunks(chunks(), sizes)) hits.push(h);
  return hits;
}

const filler = (n: number) => Array.from({ length: n }, (_, i) => `line ${i} of notes about the deploy`).join('\n');

test('every corpus shape is found on its line, whatever the chunk size and however small the windows', async () => {
  const text = SECRET_SAMPLES.map((s, i) => `${filler(i % 7)}\n${s.text}\n`).join('\n');
  const expected = whole(text);
  assert.ok(expected.length >= SECRET_SAMPLES.length);
  const longest = Math.max(...SECRET_SAMPLES.map((s) => s.text.length));
  for (const chunk of [1, 97, 4096, text.length]) {
    assert.deepEqual(
      await windowed(text, chunk, { window: 3 * longest, overlap: longest + 100 }),
      expected,
      `chunks of ${chunk}`,
    );
  }
});

test('a secret, or its label, at every offset across a window cut', async () => {
  const sizes = { window: 120, overlap: 50 };
  // The last one on a line longer than the overlap: the window holding its value cannot go back to the line's start.
  const long = `${'we talked about it at length and '.repeat(5)}password=Hunter2Hunter2!`;
  for (const secret of [
    'aws key AKIAIOSFODNN7EXAMPLE here',
    'password=Hunter2Hunter2!',
    'token ghp_abcdefghijklmnopqrstuvwxyz0123456789',
    long,
  ]) {
    for (let shift = 0; shift < 160; shift++) {
      const text = `${'x'.repeat(shift)}\n${filler(3)}\n${secret}\n${filler(2)}`;
      const got = await windowed(text, 1, sizes);
      assert.deepEqual(got, whole(text), `shift ${shift}: ${secret}`);
      assert.equal(got.length, 1, `shift ${shift}: ${secret}`);
    }
  }
});

test('a NUL byte separates, and the lines after it still count', async () => {
  const text = `# notes\0\n${filler(4)}\ntoken\0ghp_abcdefghijklmnopqrstuvwxyz0123456789\n${filler(4)}`;
  assert.deepEqual(await windowed(text, 5, { window: 100, overlap: 45 }), [{ line: 6, kind: 'github-pat' }]);
});
