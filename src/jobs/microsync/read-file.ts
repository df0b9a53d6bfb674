/**
 * Reads one transcript file for a microsync run: from its cursor (or the window's start), stopping at
 * `now`, in bounded batches so a 200 MB transcript never sits in memory whole. Decides where the
 * cursor may advance: only past lines at or before `now`, and only past turns an extractor finished.
 */
import fs from 'node:fs';
import type { DateTime } from 'luxon';
import { openTranscript } from '../../transcripts/index.js';
import type { SourceKind, Turn } from '../../transcripts/types.js';
import { checkCursor, fingerprint, type Cursor } from './cursors.js';

/** Turns handed to an extractor at once; a few of the previous batch come along as context. */
export const BATCH_TURNS = 500;
const CONTEXT_TURNS = 4;

export interface FileWindow {
  /** Turns strictly after this moment are in the window; null: every turn read. */
  start: DateTime | null;
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
  turnsRead: number;
  bytesRead: number;
  malformed: number;
  warnings: string[];
  sessionId?: string;
  skip?: string;
  /** New cursor, or undefined to keep the old one. */
  cursor?: Cursor;
  stoppedEarly: boolean;
}

export async function readTranscriptFile(file: string, kind: SourceKind, prev: Cursor | undefined, win: FileWindow, judge: SessionJudge, onBatch: BatchHandler): Promise<FileReadResult> {
  const st = await fs.promises.stat(file);
  const base: FileReadResult = { state: 'read', turnsRead: 0, bytesRead: 0, malformed: 0, warnings: [], stoppedEarly: false };
  const check = await checkCursor(file, prev, st);
  const resume = !win.fromStart && (check.state === 'grown' || check.state === 'unchanged');
  if (resume && check.state === 'unchanged') return { ...base, state: 'unchanged' };
  // Without a cursor to resume from, a file untouched since the window opened holds nothing new.
  const start = resume ? null : win.start;
  if (start && st.mtimeMs < start.toMillis()) return { ...base, state: 'skipped-old' };

  const nowMs = win.now.toMillis();
  const startMs = start?.toMillis() ?? -Infinity;
  const stream = openTranscript(file, kind, {
    fromOffset: resume ? prev!.offset : 0,
    fromIndex: resume ? prev!.turns : 0,
    maxLineBytes: win.maxLineBytes,
    ...(resume && prev!.pendingTools ? { toolNames: prev!.pendingTools } : {}),
    // An untimed line takes the file's mtime; in a replay (--now before the mtime) the file as it was
    // then cannot have been modified later than then.
    fallbackTimestamp: new Date(Math.min(st.mtimeMs, win.now.toMillis())).toISOString(),
  });

  const result: FileReadResult = { ...base, ...(check.state === 'rewritten' && !win.fromStart ? { rewritten: check.why } : {}) };
  let batch: Turn[] = [];
  let context: Turn[] = [];
  let safe = { offset: resume ? prev!.offset : 0, turns: resume ? prev!.turns : 0 };
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
    const done = processedThrough === null ? batch[batch.length - 1]! : batch.filter((t) => t.index <= processedThrough).pop();
    if (processedThrough !== null) halted = true;
    if (done) safe = { offset: done.endOffset, turns: done.index };
    context = batch.slice(-CONTEXT_TURNS);
    batch = [];
  };

  for await (const turn of stream.turns) {
    const ts = turn.timestamp ? Date.parse(turn.timestamp) : NaN;
    if (ts > nowMs) {
      future = true;
      break;
    }
    lastRead = turn;
    result.turnsRead++;
    if (opener && opener.length < OPENER_TURNS) opener.push(turn);
    if (ts > startMs || Number.isNaN(ts)) batch.push(turn);
    else context = [...context, turn].slice(-CONTEXT_TURNS);
    if (opener?.length === OPENER_TURNS && result.skip === undefined) {
      // Judged as soon as the opener is read, so a bot session is dropped before any extraction.
      judged();
      if (result.skip) {
        halted = true;
        break;
      }
    }
    if (batch.length >= BATCH_TURNS) {
      await flush();
      if (halted) break;
    }
  }
  if (!halted) await flush();

  const stats = stream.stats;
  result.bytesRead = stats.bytesRead;
  result.malformed = stats.malformed;
  result.warnings = stats.warnings;
  result.sessionId = stats.sessionId;
  if (result.skip === '') delete result.skip;
  result.stoppedEarly = halted;
  if (!halted) {
    // Lines after the last turn (meta lines, malformed ones) are passed too, unless a later-than-now
    // turn stopped the read: then the cursor stays at the last turn at or before now.
    safe = future ? { offset: lastRead?.endOffset ?? safe.offset, turns: lastRead?.index ?? safe.turns } : { offset: stats.endOffset, turns: lastRead?.index ?? safe.turns };
  }
  const fp = await fingerprint(file, safe.offset);
  // Pending tool calls are known only where the read stopped: a cursor set earlier goes without them.
  const pendingTools = safe.offset === stats.endOffset ? stats.pendingTools : undefined;
  result.cursor = { offset: safe.offset, turns: safe.turns, size: st.size, mtimeMs: st.mtimeMs, ...fp, ...(stats.sessionId ? { sessionId: stats.sessionId } : {}), ...(pendingTools ? { pendingTools } : {}) };
  return result;
}
