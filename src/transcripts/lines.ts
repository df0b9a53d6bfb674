/**
 * Complete lines of a growing file, with byte offsets, in bounded memory.
 *
 * Invariants:
 * - A line is yielded only once its "\n" has been read. A trailing line without one may still be
 *   being written, so it is not yielded and `end` of the last yielded line is where a cursor stops;
 *   unless the caller knows the writer is done (`unterminated`: the file has been idle), when it is
 *   yielded last, flagged, its `end` the end of the bytes read.
 * - A line longer than maxLineBytes is dropped while it streams past, never buffered whole: a 5 MB
 *   line or a 200 MB file costs at most maxLineBytes plus one chunk of memory.
 * - Offsets count bytes, not characters, so cursors survive multi-byte text and CRLF endings.
 * - Content never throws: bytes decode as UTF-8 with U+FFFD for invalid sequences. Splitting on the
 *   0x0A byte is safe because it never occurs inside a multi-byte UTF-8 sequence.
 * Built on fs.createReadStream with Buffer chunks, not readline, which buffers whole lines as strings
 * and yields an unterminated last line as if it were complete.
 */
import { createReadStream } from 'node:fs';

export const DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024;
const NEWLINE = 0x0a;

export interface Line {
  /** Decoded text without the line ending ("\n" or "\r\n"). */
  text: string;
  /** Byte offset of the line's first byte. */
  start: number;
  /** Byte offset just past its "\n": the next line's start. */
  end: number;
  /** 1-based, counted from where this read started (absolute only when it started at 0). */
  line: number;
  /** The trailing line, without its "\n" (read only when asked for: ReadLinesOptions.unterminated). */
  unterminated?: true;
}

export interface LongLine {
  start: number;
  end: number;
  line: number;
  bytes: number;
}

export interface ReadLinesOptions {
  fromOffset?: number;
  /** Byte offset to stop at: no byte at or after it is read (a line ending there is the last). */
  toOffset?: number;
  maxLineBytes?: number;
  /** Also yield a trailing line without "\n" (not one over maxLineBytes): its writer is known to be done. */
  unterminated?: boolean;
  /** Called for each complete line that was skipped for being longer than maxLineBytes. */
  onLongLine?: (skipped: LongLine) => void;
  /** Called with the size of every chunk read from disk. */
  onBytes?: (bytes: number) => void;
  chunkBytes?: number;
}

export async function* readLines(path: string, opts: ReadLinesOptions = {}): AsyncGenerator<Line> {
  const from = opts.fromOffset ?? 0;
  const max = opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  if (opts.toOffset !== undefined && opts.toOffset <= from) return;
  const end = opts.toOffset === undefined ? undefined : opts.toOffset - 1;
  const stream = createReadStream(path, { start: from, end, highWaterMark: opts.chunkBytes ?? 64 * 1024 });
  let parts: Buffer[] = [];
  let lineBytes = 0;
  let skipping = false;
  let lineStart = from;
  let chunkStart = from;
  let lineNo = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    opts.onBytes?.(chunk.length);
    let at = 0;
    for (let nl = chunk.indexOf(NEWLINE, at); nl !== -1; nl = chunk.indexOf(NEWLINE, at)) {
      const end = chunkStart + nl + 1;
      const bytes = lineBytes + (nl - at);
      lineNo += 1;
      if (skipping || bytes > max) {
        opts.onLongLine?.({ start: lineStart, end, line: lineNo, bytes });
      } else {
        parts.push(chunk.subarray(at, nl));
        yield { text: decode(parts, lineStart === 0), start: lineStart, end, line: lineNo };
      }
      parts = [];
      lineBytes = 0;
      skipping = false;
      lineStart = end;
      at = nl + 1;
    }
    const rest = chunk.length - at;
    if (rest > 0) {
      lineBytes += rest;
      if (!skipping && lineBytes > max) {
        // Too long already: drop what we hold and only count the rest as it streams past.
        skipping = true;
        parts = [];
      } else if (!skipping) {
        parts.push(chunk.subarray(at));
      }
    }
    chunkStart += chunk.length;
  }
  if (opts.unterminated && !skipping && lineBytes > 0) {
    yield {
      text: decode(parts, lineStart === 0),
      start: lineStart,
      end: chunkStart,
      line: lineNo + 1,
      unterminated: true,
    };
  }
}

/** The first complete line of a file (a header), or null when it is missing, unterminated or too long. */
export async function readFirstLine(path: string, maxLineBytes = DEFAULT_MAX_LINE_BYTES): Promise<Line | null> {
  // Small chunks: a header is usually a few hundred bytes, and a resumed read should not pull 64 KiB for it.
  for await (const line of readLines(path, { maxLineBytes, chunkBytes: 4096 })) return line;
  return null;
}

function decode(parts: Buffer[], atFileStart: boolean): string {
  let text = (parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts)).toString('utf8');
  if (text.endsWith('\r')) text = text.slice(0, -1);
  if (atFileStart && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return text;
}
