/**
 * Reads one transcript file for a microsync run: from its cursor (or the window's start), stopping at
 * `now`, in bounded batches so a 200 MB transcript never sits in memory whole. Decides where the
 * cursor may advance: only past lines at or before `now`, and only past lines whose turns (one line
 * may hold several) an extractor all finished, so the next run numbers turns as one long run would.
 * A resumed read first re-reads the last few turns before its cursor (where the cursor says they
 * began), as context only: never counted, extracted or cited again, but a reply still meets the
 * proposal it confirms, as in one long run.
 */
import fs from 'node:fs';
import type { DateTime } from 'luxon';
import { storedSessionPath } from '../../extract/trust.js';
import { openTranscript } from '../../transcripts/index.js';
import type { SourceKind, Turn } from '../../transcripts/types.js';
import { stillWriting } from '../../transcripts/growing.js';
import { ContextMarks, type Mark } from './context-marks.js';
import { lineAt, turnsBefore } from './read-back.js';
import { checkCursor, fingerprint, type Cursor } from '../../transcripts/cursors.js';

/** Turns handed to an extractor at once; a few of the previous batch come along as context. */
export const BATCH_TURNS = 500;
const CONTEXT_TURNS = 4;
/**
 * How far past now a turn may be dated and still be extracted when later lines show the writer's
 * clock ran ahead: two machines' clocks, or a harness stamping a turn at its end, differ by minutes.
 * Further ahead, the date is wrong and the turn is kept only as context.
 */
export const SKEW_MS = 10 * 60_000;

export interface FileWindow {
  /** Turns strictly after this moment are in the window; null: every turn read. */
  start: DateTime | null;
  /** In the configured zone, which also dates transcript times written without an offset. */
  now: DateTime;
  /** Ignore the cursor and read from the beginning (an explicit --since). */
  fromStart: boolean;
  maxLineBytes: number;
}

export interface BatchResult {
  /** Last turn index whose statements were fully extracted (null: the whole batch was). */
  processedThrough: number | null;
}

export type BatchHandler = (batch: { turns: Turn[]; context: Turn[] }) => Promise<BatchResult>;

/** Says why a session must produce nothing, from its first turns (scheduler, bot, sub-agent). */
export type SessionJudge = (opener: Turn[]) => string | undefined;
const OPENER_TURNS = 5;

export interface FileReadResult {
  state: 'skipped-old' | 'unchanged' | 'read';
  rewritten?: string;
  /** Turns in the window (extracted, or context past the clock skew): what a run says it read. */
  turnsRead: number;
  /** Turns dated at or before the window's start: read as context only, never extracted. */
  turnsBefore: number;
  bytesRead: number;
  malformed: number;
  warnings: string[];
  sessionId?: string;
  skip?: string;
  /** New cursor, or undefined to keep the old one. */
  cursor?: Cursor;
  stoppedEarly: boolean;
}

export async function readTranscriptFile(
  file: string,
  kind: SourceKind,
  prev: Cursor | undefined,
  win: FileWindow,
  judge: SessionJudge,
  onBatch: BatchHandler,
): Promise<FileReadResult> {
  const st = await fs.promises.stat(file);
  const base: FileReadResult = {
    state: 'read',
    turnsRead: 0,
    turnsBefore: 0,
    bytesRead: 0,
    malformed: 0,
    warnings: [],
    stoppedEarly: false,
  };
  const check = await checkCursor(file, prev, st);
  const resume = !win.fromStart && (check.state === 'grown' || check.state === 'unchanged');
  if (resume && check.state === 'unchanged') return { ...base, state: 'unchanged' };
  // Without a cursor to resume from, a file untouched since the window opened holds nothing new.
  const start = resume ? null : win.start;
  if (start && st.mtimeMs < start.toMillis()) return { ...base, state: 'skipped-old' };

  const nowMs = win.now.toMillis();
  const startMs = start?.toMillis() ?? -Infinity;
  // An untimed line takes the file's mtime; in a replay (--now before the mtime) the file as it was
  // then cannot have been modified later than then.
  const fallback = new Date(Math.min(st.mtimeMs, win.now.toMillis())).toISOString();
  const zone = win.now.zoneName ?? 'UTC';
  const reread = resume
    ? await turnsBefore(file, kind, prev!, { maxLineBytes: win.maxLineBytes, fallbackTimestamp: fallback, zone })
    : { from: { offset: 0, turns: 0 }, turns: [] };
  const stream = openTranscript(file, kind, {
    fromOffset: resume ? prev!.offset : 0,
    fromIndex: resume ? prev!.turns : 0,
    maxLineBytes: win.maxLineBytes,
    ...(resume && prev!.pendingTools ? { toolNames: prev!.pendingTools } : {}),
    fallbackTimestamp: fallback,
    zone,
    growing: stillWriting(st.mtimeMs, nowMs),
  });

  const result: FileReadResult = {
    ...base,
    ...(check.state === 'rewritten' && !win.fromStart ? { rewritten: check.why } : {}),
  };
  let batch: Turn[] = [];
  // Where the context of a cursor after each batch turn begins (a budget stop may put one there).
  let batchContext: Mark[] = [];
  let context: Turn[] = reread.turns.slice(-CONTEXT_TURNS);
  // The line ends of the last few turns read: where the context of a cursor after the latest begins.
  const marks = new ContextMarks(reread.from, CONTEXT_TURNS);
  reread.turns.forEach((t) => marks.add(t));
  const at = (offset: number, turns: number) => ({ offset, turns, context: marks.before(turns) });
  let safe = resume ? at(prev!.offset, prev!.turns) : at(0, 0);
  let lastRead: Turn | undefined;
  let future = false;
  let halted = false;
  // Reading from the start, the first turns are held back until the session has been judged.
  // A cursor that has passed no turn yet (the first line was later than --now) has not judged either.
  const opener: Turn[] | null = resume && prev!.turns > 0 ? null : [];
  const judged = () => {
    if (!opener || result.skip !== undefined) return;
    result.skip = judge(opener) ?? '';
  };

  const flush = async () => {
    judged();
    if (result.skip) halted = true;
    if (!batch.length || halted) return;
    const { processedThrough } = await onBatch({ turns: batch, context });
    // A line's turns share its end: the cursor passes a line only once all of them are done, or the
    // next run would resume after the line and number its first unread turn as the one not done.
    const undone = processedThrough === null ? undefined : batch.find((t) => t.index > processedThrough);
    const done = batch.findLastIndex((t) => !undone || t.endOffset < undone.endOffset);
    if (processedThrough !== null) halted = true;
    if (done >= 0) safe = { offset: batch[done]!.endOffset, turns: batch[done]!.index, context: batchContext[done]! };
    context = batch.slice(-CONTEXT_TURNS);
    batch = [];
    batchContext = [];
  };

  // A turn later than now is held back. Followed by a dated turn at or before now it was written with a
  // wrong clock, not in the future: it is read on (past SKEW_MS late, as context only, with one
  // warning). At the end of the file it is genuinely newer, and the cursor stops before it.
  let held: Turn[] = [];
  let misdated: { turn: Turn; count: number } | undefined;
  const accept = async (turn: Turn, ts: number): Promise<boolean> => {
    // A full batch is handed on at a line's end only, so a budget stop never finds a line split
    // between the batch it ends in and one already passed.
    if (batch.length >= BATCH_TURNS && turn.endOffset !== batch[batch.length - 1]!.endOffset) {
      await flush();
      if (halted) return false;
    }
    lastRead = turn;
    marks.add(turn);
    if (opener && opener.length < OPENER_TURNS) opener.push(turn);
    const inWindow = ts > startMs || Number.isNaN(ts);
    if (inWindow) result.turnsRead++;
    else result.turnsBefore++;
    if (ts > nowMs + SKEW_MS || !inWindow) context = [...context, turn].slice(-CONTEXT_TURNS);
    else {
      batch.push(turn);
      batchContext.push(marks.before(turn.index));
    }
    marks.forget(turn.index);
    if (opener?.length === OPENER_TURNS && result.skip === undefined) {
      // Judged as soon as the opener is read, so a bot session is dropped before any extraction.
      judged();
      if (result.skip) {
        halted = true;
        return false;
      }
    }
    return true;
  };
  const timeOf = (turn: Turn) => (turn.timestamp ? Date.parse(turn.timestamp) : NaN);

  reading: for await (const turn of stream.turns) {
    const ts = timeOf(turn);
    // An untimed line (it took the fallback) after a held one says nothing about the clock.
    if (ts > nowMs || (held.length > 0 && turn.timestamp === fallback)) {
      held.push(turn);
      // A replay (--now long before the file's end) need not read, or hold, the rest of the file.
      if (held.length > BATCH_TURNS) break;
      continue;
    }
    for (const h of held) {
      if (timeOf(h) > nowMs + SKEW_MS) misdated = { turn: misdated?.turn ?? h, count: (misdated?.count ?? 0) + 1 };
      if (!(await accept(h, timeOf(h)))) break reading;
    }
    held = [];
    if (!(await accept(turn, ts))) break;
  }
  future = held.length > 0;
  if (!halted) await flush();

  const stats = stream.stats;
  result.bytesRead = stats.bytesRead;
  result.malformed = stats.malformed;
  result.warnings = [...stats.warnings];
  if (misdated) {
    const more =
      misdated.count > 1 ? ` (and ${misdated.count - 1} more such line${misdated.count > 2 ? 's' : ''})` : '';
    result.warnings.push(
      `${storedSessionPath(file)} line ${await lineAt(file, misdated.turn.endOffset)}: dated ${misdated.turn.timestamp}, later than now but followed by earlier lines${more}: ` +
        'a wrong clock; read on, its text kept only as context',
    );
  }
  result.sessionId = stats.sessionId;
  if (result.skip === '') delete result.skip;
  result.stoppedEarly = halted;
  if (!halted) {
    // Lines after the last turn (meta lines, malformed ones) are passed too, unless a later-than-now
    // turn stopped the read: then the cursor stays at the last turn at or before now.
    safe = future
      ? at(lastRead?.endOffset ?? safe.offset, lastRead?.index ?? safe.turns)
      : at(stats.endOffset, lastRead?.index ?? safe.turns);
  }
  const fp = await fingerprint(file, safe.offset);
  // Pending tool calls are known only where the read stopped: a cursor set earlier goes without them.
  const pendingTools = safe.offset === stats.endOffset ? stats.pendingTools : undefined;
  result.cursor = {
    offset: safe.offset,
    turns: safe.turns,
    contextOffset: safe.context.offset,
    contextTurns: safe.context.turns,
    size: st.size,
    mtimeMs: st.mtimeMs,
    ...fp,
    ...(stats.sessionId ? { sessionId: stats.sessionId } : {}),
    ...(pendingTools ? { pendingTools } : {}),
  };
  return result;
}
