/**
 * A Markdown transcript file → turns, streamed: its lines go through the parser (markdown.ts) as
 * they are read, and each turn is handed on once the next heading closes it, so reading a file
 * costs one turn of memory, not the file (read whole, an 8 MB export held ~45 MB of line objects
 * and turns, and `mem archive --rebuild`'s peak memory grew with the biggest file).
 * A resumed read reads only the bytes after the cursor (plus the front matter from the head, not
 * counted as read, like a JSONL header), up to `toOffset` when one is given, and never past the size
 * the file had when opened. While the file is `growing` its last turn is left for a later read: only
 * the next heading shows that a turn is complete. The turns, their numbers, offsets and the stats are
 * those of the whole-file parse (parseMarkdownTranscript).
 */
import { open, type FileHandle } from 'node:fs/promises';
import { readLines } from './lines.js';
import { MarkdownParser, parseMarkdownHeader, type MarkdownTurn, type ParsedMarkdown } from './markdown.js';
import type { StatsRecorder } from './stats.js';
import { normalizeTimestamp } from './time.js';
import { toTurn } from './turn.js';
import type { ReadOptions, Turn } from './types.js';

/** A bigger file is surely not a Markdown transcript: it is skipped, not read. */
const MAX_MARKDOWN_BYTES = 64 * 1024 * 1024;

export async function* markdownTurns(path: string, opts: ReadOptions, rec: StatsRecorder): AsyncGenerator<Turn> {
  const { stats } = rec;
  const from = opts.fromOffset ?? 0;
  const fd = await open(path, 'r');
  let size: number;
  let header: ParsedMarkdown | undefined;
  try {
    size = Math.min((await fd.stat()).size, opts.toOffset ?? Infinity);
    if (size - from > MAX_MARKDOWN_BYTES) {
      stats.endOffset = size;
      stats.skippedLong += 1;
      rec.warn(`${rec.shown}: ${size - from} bytes is too large for a Markdown transcript; skipped`);
      return;
    }
    if (from > 0) header = parseMarkdownHeader(await readHead(fd, from));
  } finally {
    await fd.close();
  }
  const parser = new MarkdownParser(from === 0);
  // What the front matter says, applied once: before the first turn (the parser has settled it by
  // then), or at the end when no turn came.
  let started: { at: string | null; cwd: string | undefined } | undefined;
  const settle = () => {
    if (started) return started;
    const { problem, sessionId, startedAt, cwd } = header ?? parser.head;
    if (problem && from === 0) rec.malformed(1, 0, problem); // reported once, by the read from the start
    if (sessionId) stats.sessionId = sessionId;
    return (started = { at: normalizeTimestamp(startedAt, opts.zone), cwd });
  };
  let index = opts.fromIndex ?? 0;
  let lastEnd = from;
  const turn = (draft: MarkdownTurn): Turn => {
    const { at, cwd } = settle();
    index += 1;
    let timestamp = normalizeTimestamp(draft.time, opts.zone) ?? at;
    if (timestamp === null) {
      stats.untimed += 1;
      timestamp = opts.fallbackTimestamp ?? null;
    }
    lastEnd = draft.end;
    return toTurn(cwd ? { ...draft, cwd } : draft, {
      sessionId: stats.sessionId,
      sessionPath: path,
      index,
      timestamp,
      endOffset: draft.end,
    });
  };
  // One turn is held back: the last one of a growing file is not yielded, and the cursor stays before it.
  let held: MarkdownTurn | undefined;
  let read = 0;
  const lines = readLines(path, {
    fromOffset: from,
    toOffset: size,
    maxLineBytes: Infinity,
    unterminated: true,
    onBytes: (n) => (stats.bytesRead = read += n),
  });
  for await (const line of lines) {
    for (const t of parser.push(line)) {
      if (held) yield turn(held);
      held = t;
    }
  }
  for (const t of parser.end()) {
    if (held) yield turn(held);
    held = t;
  }
  if (held && !opts.growing) yield turn(held);
  settle();
  stats.endOffset = opts.growing ? lastEnd : from + read;
}

async function readRange(fd: FileHandle, start: number, end: number): Promise<Buffer> {
  const buf = Buffer.alloc(Math.max(0, end - start));
  let at = 0;
  while (at < buf.length) {
    const { bytesRead } = await fd.read(buf, at, buf.length - at, start + at);
    if (bytesRead === 0) break; // shrank while read: what is there
    at += bytesRead;
  }
  return at === buf.length ? buf : buf.subarray(0, at);
}

/** The head holding the front matter: 4 KiB, more (up to 64 KiB, never past `limit`) only while it is still open. */
async function readHead(fd: FileHandle, limit: number): Promise<Buffer> {
  const head = await readRange(fd, 0, Math.min(limit, 4096));
  const unclosed =
    head.subarray(0, 3).toString() === '---' && !/\n(?:---|\.\.\.)[ \t]*\r?\n/.test(head.toString('utf8'));
  return unclosed && limit > head.length ? readRange(fd, 0, Math.min(limit, 64 * 1024)) : head;
}
