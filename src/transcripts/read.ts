/**
 * openTranscript: one file of any supported kind → a stream of turns plus read stats (DESIGN §4).
 *
 * Invariants: indexes continue from `fromIndex`, so a resumed read numbers turns exactly as a full
 * read would; `endOffset` of a turn is the end of the line it came from, so a cursor set there
 * never skips a turn and never stops inside a line; a malformed or over-long line is counted and
 * warned about, never thrown; a file that is not text is skipped whole with one warning (binary.ts);
 * only a file that cannot be read at all fails (SOURCE_UNREADABLE).
 */
import { open, type FileHandle } from 'node:fs/promises';
import { MemError } from '../core/errors.js';
import { redactSecrets } from '../secrets/secrets.js';
import { skipIfNotText } from './binary.js';
import { createClaudeCodeFormat } from './claude-code.js';
import { createCodexFormat } from './codex.js';
import type { JsonlFormat } from './draft.js';
import { createJsonlFormat } from './jsonl.js';
import { DEFAULT_MAX_LINE_BYTES, readFirstLine, readLines } from './lines.js';
import { parseMarkdownHeader, parseMarkdownTranscript } from './markdown.js';
import { createOpenClawFormat } from './openclaw.js';
import { defaultSessionId, safeSessionId } from './session-id.js';
import { StatsRecorder } from './stats.js';
import { isObj } from './text.js';
import { normalizeTimestamp } from './time.js';
import { SOURCE_KINDS, type ReadOptions, type SourceKind, type TranscriptStream, type Turn } from './types.js';

const JSONL_FORMATS: Record<Exclude<SourceKind, 'markdown'>, () => JsonlFormat> = {
  'claude-code': createClaudeCodeFormat,
  codex: createCodexFormat,
  openclaw: createOpenClawFormat,
  jsonl: createJsonlFormat,
};

/** Markdown transcripts are read whole; a bigger file is surely not one and is skipped, not loaded. */
const MAX_MARKDOWN_BYTES = 64 * 1024 * 1024;
const LOOK_BEHIND = 512 * 1024;
/** Where a message's copy is looked for before the cursor: it follows the original within a few lines. */
const PAIR_BEHIND = 64 * 1024;

export function openTranscript(path: string, kind: SourceKind, opts: ReadOptions = {}): TranscriptStream {
  if (!SOURCE_KINDS.includes(kind)) {
    throw new MemError('CONFIG_INVALID', `unknown transcript kind "${String(kind)}"; expected one of ${SOURCE_KINDS.join(', ')}`);
  }
  const recorder = new StatsRecorder(path, defaultSessionId(path, kind), opts.fromOffset ?? 0);
  const format = kind === 'markdown' ? undefined : JSONL_FORMATS[kind]();
  const inner = format ? jsonlTurns(path, format, opts, recorder) : markdownTurns(path, opts, recorder);
  return { stats: recorder.stats, turns: guarded(inner, path, opts, recorder, format) };
}

async function* guarded(inner: AsyncGenerator<Turn>, path: string, opts: ReadOptions, recorder: StatsRecorder, format?: JsonlFormat): AsyncGenerator<Turn> {
  try {
    if (await skipIfNotText(path, recorder)) return;
    yield* inner;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException | undefined)?.code;
    if (typeof code === 'string') {
      const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : code === 'EACCES' ? 'permission denied' : code;
      throw new MemError('SOURCE_UNREADABLE', `cannot read transcript ${recorder.shown}: ${why}`, { cause: err });
    }
    throw err;
  } finally {
    // The calls still unanswered where the read stopped, so the next resumed read needs no look-behind.
    const pending = format?.tools?.pending();
    if (pending) recorder.stats.pendingTools = pending;
    // The id a cursor keeps for a resumed read: the one its turns carried.
    recorder.stats.sessionId = safeSessionId(recorder.stats.sessionId);
    recorder.finish(opts.fallbackTimestamp);
  }
}

async function* jsonlTurns(path: string, format: JsonlFormat, opts: ReadOptions, rec: StatsRecorder): AsyncGenerator<Turn> {
  const fromOffset = opts.fromOffset ?? 0;
  const maxLineBytes = opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const { stats } = rec;
  let index = opts.fromIndex ?? 0;
  let declared: string | undefined;
  let sawTurn = false;
  for (const [id, name] of Object.entries(opts.toolNames ?? {})) format.tools?.remember(id, name);
  if (fromOffset > 0) {
    const header = await warmUp(path, format, fromOffset, maxLineBytes, opts.toolNames === undefined);
    if (header) declared = stats.sessionId = header;
  }
  const lines = readLines(path, {
    fromOffset,
    ...(opts.toOffset !== undefined ? { toOffset: opts.toOffset } : {}),
    maxLineBytes,
    unterminated: !opts.growing,
    onBytes: (n) => (stats.bytesRead += n),
    onLongLine: (long) => {
      stats.skippedLong += 1;
      stats.endOffset = long.end;
      rec.warn(`${rec.where(long.line, long.start)}: line of ${long.bytes} bytes skipped (over maxLineBytes ${maxLineBytes})`);
    },
  });
  for await (const line of lines) {
    const blank = line.text.trim() === '';
    const value = blank ? undefined : safeParse(line.text);
    // The last line of an idle file, without its "\n": read when it is whole JSON (a writer that
    // ended without one), left for later when it is not (the rest may yet come), never re-read.
    if (line.unterminated && value === undefined) break;
    stats.endOffset = line.end;
    if (blank) continue;
    if (value === undefined) {
      rec.malformed(line.line, line.start, 'invalid JSON');
      continue;
    }
    if (!isObj(value)) {
      rec.malformed(line.line, line.start, 'not a JSON object');
      continue;
    }
    const result = format.parse(value);
    if (!result.ok) {
      rec.malformed(line.line, line.start, result.reason);
      continue;
    }
    if (result.sessionId) declared = stats.sessionId = result.sessionId;
    let untimed = false;
    for (const draft of result.turns) {
      let timestamp = normalizeTimestamp(draft.time, opts.zone);
      if (timestamp === null) {
        untimed = true;
        timestamp = opts.fallbackTimestamp ?? null;
      }
      const sessionId = draft.sessionId ?? declared ?? stats.sessionId;
      if (!sawTurn && !declared) stats.sessionId = sessionId;
      sawTurn = true;
      index += 1;
      yield toTurn(draft, { sessionId, sessionPath: path, index, timestamp, endOffset: line.end });
    }
    if (untimed) stats.untimed += 1;
  }
}

/**
 * Before a resumed read: replays the header (session id, start time) and, when the caller has no
 * pending tool names for the cursor (`lookBehind`), the last LOOK_BEHIND bytes before it (tool names
 * by call id) through the format, discarding their turns, so the resumed read yields what a full
 * read would; a format that writes messages twice always replays the last PAIR_BEHIND bytes.
 * Returns the session id the header declared.
 */
async function warmUp(path: string, format: JsonlFormat, fromOffset: number, maxLineBytes: number, lookBehind: boolean): Promise<string | undefined> {
  let declared: string | undefined;
  const replay = (text: string) => {
    const value = safeParse(text);
    if (!isObj(value)) return;
    const result = format.parse(value);
    if (result.ok && result.sessionId) declared = result.sessionId;
  };
  const behind = Math.max(format.looksBehind && lookBehind ? LOOK_BEHIND : 0, format.pairsBehind ? PAIR_BEHIND : 0);
  const windowStart = Math.max(0, fromOffset - behind);
  if (format.readsHeader && windowStart > 0) {
    const header = await readFirstLine(path, maxLineBytes);
    if (header) replay(header.text);
  }
  if (windowStart < fromOffset) {
    for await (const line of readLines(path, { fromOffset: windowStart, maxLineBytes })) {
      if (line.start >= fromOffset) break;
      // The window's first line is usually a tail cut mid-line: never parse it.
      if (line.start === windowStart && windowStart > 0) continue;
      replay(line.text);
    }
  }
  return declared;
}

/**
 * A Markdown transcript is parsed in one piece: the whole file, or on a resumed read only the bytes
 * after the cursor (plus the front matter from the head, not counted as read, like a JSONL header),
 * up to `toOffset` when one is given.
 * Only the next heading shows that a turn is complete, so while the file is `growing` its last turn
 * is left for a later read.
 */
async function* markdownTurns(path: string, opts: ReadOptions, rec: StatsRecorder): AsyncGenerator<Turn> {
  const { stats } = rec;
  const from = opts.fromOffset ?? 0;
  const fd = await open(path, 'r');
  let buf: Buffer;
  let header: ReturnType<typeof parseMarkdownHeader> | undefined;
  try {
    const size = Math.min((await fd.stat()).size, opts.toOffset ?? Infinity);
    if (size - from > MAX_MARKDOWN_BYTES) {
      stats.endOffset = size;
      stats.skippedLong += 1;
      rec.warn(`${rec.shown}: ${size - from} bytes is too large for a Markdown transcript; skipped`);
      return;
    }
    if (from > 0) header = parseMarkdownHeader(await readHead(fd, from));
    buf = await readRange(fd, from, size);
  } finally {
    await fd.close();
  }
  stats.bytesRead = buf.length;
  const parsed = parseMarkdownTranscript(buf, from);
  // A last turn still being written is not yielded, and the cursor stays before it.
  const turns = opts.growing ? parsed.turns.slice(0, -1) : parsed.turns;
  stats.endOffset = opts.growing ? (turns.at(-1)?.end ?? from) : from + buf.length;
  const { problem, sessionId, startedAt, cwd } = header ?? parsed;
  if (problem && from === 0) rec.malformed(1, 0, problem); // reported once, by the read from the start
  if (sessionId) stats.sessionId = sessionId;
  const started = normalizeTimestamp(startedAt, opts.zone);
  let index = opts.fromIndex ?? 0;
  for (const draft of turns) {
    index += 1;
    let timestamp = normalizeTimestamp(draft.time, opts.zone) ?? started;
    if (timestamp === null) {
      stats.untimed += 1;
      timestamp = opts.fallbackTimestamp ?? null;
    }
    yield toTurn(cwd ? { ...draft, cwd } : draft, { sessionId: stats.sessionId, sessionPath: path, index, timestamp, endOffset: draft.end });
  }
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
  const unclosed = head.subarray(0, 3).toString() === '---' && !/\n(?:---|\.\.\.)[ \t]*\r?\n/.test(head.toString('utf8'));
  return unclosed && limit > head.length ? readRange(fd, 0, Math.min(limit, 64 * 1024)) : head;
}

type Where = Pick<Turn, 'sessionId' | 'sessionPath' | 'index' | 'timestamp' | 'endOffset'>;

function toTurn(draft: { role: Turn['role']; text: string; toolName?: string; cwd?: string; sidechain?: boolean; meta?: boolean }, where: Where): Turn {
  const turn: Turn = { sessionId: safeSessionId(where.sessionId), sessionPath: where.sessionPath, index: where.index, role: draft.role, text: draft.text, timestamp: where.timestamp, endOffset: where.endOffset };
  // Shown to the LLM and stored in the archive beside the text, so through the same gate as the session id.
  if (draft.toolName) turn.toolName = redactSecrets(draft.toolName).text;
  // Kept as written: the scope is found from the real folder. Whatever stores it redacts it first.
  if (draft.cwd) turn.cwd = draft.cwd;
  if (draft.sidechain) turn.sidechain = true;
  if (draft.meta) turn.meta = true;
  return turn;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
