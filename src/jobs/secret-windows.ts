/**
 * The secrets of a text of any size, scanned in overlapping windows so memory stays bounded: a
 * 24 MB research dump was once skipped whole by `mem lint --secrets`, and the key at its end was
 * committed. Pure apart from the chunks it is given.
 *
 * Every character is owned by exactly one window, and a window reports only the findings that
 * start in what it owns. What it owns has OVERLAP characters of the text before it (a label such as
 * `password=` before a value) and at least OVERLAP after it (unless the text ends), so a secret
 * shorter than OVERLAP is seen whole, with its label, by the window that reports it, wherever the
 * windows are cut. OVERLAP is four times the longest bounded secret shape (a service-account key's
 * 16 KiB private key); a longer unbounded value is still found, only its reported span is cut.
 * NUL bytes are read as spaces: text with a stray NUL is still text, and a NUL still separates.
 */
import { findSecrets } from '../secrets/secrets.js';

export interface WindowHit {
  line: number;
  kind: string;
}

export interface WindowSizes {
  /** Characters gathered before a window is scanned. */
  window: number;
  overlap: number;
}

export const WINDOW_SIZES: WindowSizes = { window: 4 * 1024 * 1024, overlap: 64 * 1024 };

/** Where the next window begins: at the start of the line holding `at`, unless that line began too long before. */
function windowStart(text: string, at: number, overlap: number): number {
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  return lineStart >= at - overlap ? lineStart : at;
}

function newlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** The findings of `text` that start in [from, to), with their line numbers (`text` starts on `firstLine`). */
function* owned(text: string, from: number, to: number, firstLine: number): Generator<WindowHit> {
  let line = firstLine;
  let at = 0;
  for (const f of findSecrets(text)) {
    if (f.start < from || f.start >= to) continue;
    line += newlines(text, at, f.start);
    at = f.start;
    yield { line, kind: f.kind };
  }
}

export async function* secretsInChunks(
  chunks: AsyncIterable<string>,
  sizes: WindowSizes = WINDOW_SIZES,
): AsyncGenerator<WindowHit> {
  const { window, overlap } = sizes;
  let text = '';
  let firstLine = 1;
  let own = 0;
  for await (const chunk of chunks) {
    text += chunk.includes('\0') ? chunk.replaceAll('\0', ' ') : chunk;
    while (text.length >= own + window) {
      const cut = text.length - overlap;
      yield* owned(text, own, cut, firstLine);
      const keep = windowStart(text, Math.max(0, cut - overlap), overlap);
      firstLine += newlines(text, 0, keep);
      text = text.slice(keep);
      own = cut - keep;
    }
  }
  yield* owned(text, own, text.length, firstLine);
}
