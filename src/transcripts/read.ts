/**
 * openTranscript: one file of any supported kind → a stream of turns plus read stats (DESIGN §4).
 *
 * Invariants: indexes continue from `fromIndex`, so a resumed read numbers turns exactly as a full
 * read would; `endOffset` of a turn is the end of the line it came from, so a cursor set there
 * never skips a turn and never stops inside a line; a malformed or over-long line is counted and
 * warned about, never thrown; only a file that cannot be read at all fails (SOURCE_UNREADABLE).
 */
import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { MemError } from '../core/errors.js';
import { createClaudeCodeFormat } from './claude-code.js';
import { createCodexFormat } from './codex.js';
import type { JsonlFormat } from './draft.js';
import { createJsonlFormat } from './jsonl.js';
import { DEFAULT_MAX_LINE_BYTES, readFirstLine, readLines } from './lines.js';
import { parseMarkdownTranscript } from './markdown.js';
import { createOpenClawFormat } from './openclaw.js';
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
const CODEX_FILE_UUID = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;

export function openTranscript(path: string, kind: SourceKind, opts: ReadOptions = {}): TranscriptStream {
  if (!SOURCE_KINDS.includes(kind)) {
    throw new MemError('CONFIG_INVALID', `unknown transcript kind "${String(kind)}"; expected one of ${SOURCE_KINDS.join(', ')}`);
  }
  const recorder = new StatsRecorder(path, defaultSessionId(path, kind), kind === 'markdown' ? 0 : (opts.fromOffset ?? 0));
  const inner = kind === 'markdown' ? markdownTurns(path, opts, recorder) : jsonlTurns(path, JSONL_FORMATS[kind](), opts, recorder);
  return { stats: recorder.stats, turns: guarded(inner, path, opts, recorder) };
}

/** The file's session id until a line names one: the name without extension (Codex: its UUID). */
export function defaultSessionId(path: string, kind: SourceKind): string {
  if (kind === 'codex') {
    const m = CODEX_FILE_UUID.exec(path);
    if (m?.[1]) return m[1];
  }
  return basename(path, extname(path));
}

async function* guarded(inner: AsyncGenerator<Turn>, path: string, opts: ReadOptions, recorder: StatsRecorder): AsyncGenerator<Turn> {
  try {
    yield* inner;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException | undefined)?.code;
    if (typeof code === 'string') {
      const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : code === 'EACCES' ? 'permission denied' : code;
      throw new MemError('SOURCE_UNREADABLE', `cannot read transcript ${path}: ${why}`, { cause: err });
    }
    throw err;
  } finally {
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
  if (fromOffset > 0) {
    const header = await warmUp(path, format, fromOffset, maxLineBytes);
    if (header) declared = stats.sessionId = header;
  }
  const lines = readLines(path, {
    fromOffset,
    maxLineBytes,
    onBytes: (n) => (stats.bytesRead += n),
    onLongLine: (long) => {
      stats.skippedLong += 1;
      stats.endOffset = long.end;
      rec.warn(`${rec.where(long.line, long.start)}: line of ${long.bytes} bytes skipped (over maxLineBytes ${maxLineBytes})`);
    },
  });
  for await (const line of lines) {
    stats.endOffset = line.end;
    if (line.text.trim() === '') continue;
    const value = safeParse(line.text);
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
      let timestamp = normalizeTimestamp(draft.time);
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
 * Before a resumed read: replays the header (session id, start time) and the last LOOK_BEHIND bytes
 * before the cursor (tool names by call id) through the format, discarding their turns, so the
 * resumed read yields what a full read would. Returns the session id the header declared.
 */
async function warmUp(path: string, format: JsonlFormat, fromOffset: number, maxLineBytes: number): Promise<string | undefined> {
  let declared: string | undefined;
  const replay = (text: string) => {
    const value = safeParse(text);
    if (!isObj(value)) return;
    const result = format.parse(value);
    if (result.ok && result.sessionId) declared = result.sessionId;
  };
  const windowStart = format.looksBehind ? Math.max(0, fromOffset - LOOK_BEHIND) : fromOffset;
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

async function* markdownTurns(path: string, opts: ReadOptions, rec: StatsRecorder): AsyncGenerator<Turn> {
  const { stats } = rec;
  const buf = await readFile(path);
  stats.bytesRead = buf.length;
  stats.endOffset = buf.length;
  if (buf.length > MAX_MARKDOWN_BYTES) {
    stats.skippedLong += 1;
    rec.warn(`${path}: ${buf.length} bytes is too large for a Markdown transcript; skipped`);
    return;
  }
  const parsed = parseMarkdownTranscript(buf);
  if (parsed.problem) rec.malformed(1, 0, parsed.problem);
  if (parsed.sessionId) stats.sessionId = parsed.sessionId;
  const started = normalizeTimestamp(parsed.startedAt);
  const fromIndex = opts.fromIndex ?? 0;
  let index = 0;
  for (const draft of parsed.turns) {
    index += 1;
    if (index <= fromIndex) continue;
    let timestamp = normalizeTimestamp(draft.time) ?? started;
    if (timestamp === null) {
      stats.untimed += 1;
      timestamp = opts.fallbackTimestamp ?? null;
    }
    yield toTurn(draft, { sessionId: stats.sessionId, sessionPath: path, index, timestamp, endOffset: draft.end });
  }
}

type Where = Pick<Turn, 'sessionId' | 'sessionPath' | 'index' | 'timestamp' | 'endOffset'>;

function toTurn(draft: { role: Turn['role']; text: string; toolName?: string; sidechain?: boolean; meta?: boolean }, where: Where): Turn {
  const turn: Turn = { sessionId: where.sessionId, sessionPath: where.sessionPath, index: where.index, role: draft.role, text: draft.text, timestamp: where.timestamp, endOffset: where.endOffset };
  if (draft.toolName) turn.toolName = draft.toolName;
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
