/**
 * openTranscript: one file of any supported kind → a stream of turns plus read stats (DESIGN §4).
 *
 * Invariants: indexes continue from `fromIndex`, so a resumed read numbers turns exactly as a full
 * read would; `endOffset` of a turn is the end of the line it came from, so a cursor set there
 * never skips a turn and never stops inside a line; a malformed or over-long line is counted and
 * warned about, never thrown; a file that is not text is skipped whole with one warning (binary.ts);
 * only a file that cannot be read at all fails (SOURCE_UNREADABLE).
 */
import { MemError } from '../core/errors.js';
import { skipIfNotText } from './binary.js';
import { createClaudeCodeFormat } from './claude-code.js';
import { createCodexFormat } from './codex.js';
import type { JsonlFormat } from './draft.js';
import { createJsonlFormat } from './jsonl.js';
import { DEFAULT_MAX_LINE_BYTES, readFirstLine, readLines } from './lines.js';
import { markdownTurns } from './markdown-read.js';
import { createOpenClawFormat } from './openclaw.js';
import { defaultSessionId, safeSessionId } from './session-id.js';
import { StatsRecorder } from './stats.js';
import { toTurn } from './turn.js';
import { isObj } from './text.js';
import { normalizeTimestamp } from './time.js';
import { SOURCE_KINDS, type ReadOptions, type SourceKind, type TranscriptStream, type Turn } from './types.js';

const JSONL_FORMATS: Record<Exclude<SourceKind, 'markdown'>, () => JsonlFormat> = {
  'claude-code': createClaudeCodeFormat,
  codex: createCodexFormat,
  openclaw: createOpenClawFormat,
  jsonl: createJsonlFormat,
};

const LOOK_BEHIND = 512 * 1024;
/** Where a message's copy is looked for before the cursor: it follows the original within a few lines. */
const PAIR_BEHIND = 64 * 1024;

export function openTranscript(path: string, kind: SourceKind, opts: ReadOptions = {}): TranscriptStream {
  if (!SOURCE_KINDS.includes(kind)) {
    throw new MemError(
      'CONFIG_INVALID',
      `unknown transcript kind "${String(kind)}"; expected one of ${SOURCE_KINDS.join(', ')}`,
    );
  }
  const recorder = new StatsRecorder(path, defaultSessionId(path, kind), opts.fromOffset ?? 0);
  const format = kind === 'markdown' ? undefined : JSONL_FORMATS[kind]();
  const inner = format ? jsonlTurns(path, format, opts, recorder) : markdownTurns(path, opts, recorder);
  return { stats: recorder.stats, turns: guarded(inner, path, opts, recorder, format) };
}

async function* guarded(
  inner: AsyncGenerator<Turn>,
  path: string,
  opts: ReadOptions,
  recorder: StatsRecorder,
  format?: JsonlFormat,
): AsyncGenerator<Turn> {
  try {
    if (await skipIfNotText(path, recorder)) return;
    yield* inner;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException | undefined)?.code;
    if (typeof code === 'string') {
      const why =
        code === 'ENOENT'
          ? 'no such file'
          : code === 'EISDIR'
            ? 'is a directory'
            : code === 'EACCES'
              ? 'permission denied'
              : code;
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

async function* jsonlTurns(
  path: string,
  format: JsonlFormat,
  opts: ReadOptions,
  rec: StatsRecorder,
): AsyncGenerator<Turn> {
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
      rec.warn(
        `${rec.where(long.line, long.start)}: line of ${long.bytes} bytes skipped (over maxLineBytes ${maxLineBytes})`,
      );
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
async function warmUp(
  path: string,
  format: JsonlFormat,
  fromOffset: number,
  maxLineBytes: number,
  lookBehind: boolean,
): Promise<string | undefined> {
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

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
