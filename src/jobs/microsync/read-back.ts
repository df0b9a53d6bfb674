/**
 * Reads back bytes a microsync read has already passed: the turns just before a cursor (the context
 * a resumed read starts with, read-file.ts) and the line number at a byte offset (for a warning).
 * Both read only the span they need, and only when asked, so a resumed read of a 200 MB transcript
 * does not read it from the start again.
 */
import fs from 'node:fs';
import { openTranscript } from '../../transcripts/index.js';
import type { SourceKind, Turn } from '../../transcripts/types.js';
import type { Cursor } from '../../transcripts/cursors.js';
import type { Mark } from './context-marks.js';

/**
 * The turns between where the cursor's context begins and the cursor, read again as context; a cursor
 * written before it kept where that was gives none. Tool names are those still pending at the cursor:
 * a result in the context answering an older call may go unnamed, which context can afford.
 */
export async function turnsBefore(
  file: string,
  kind: SourceKind,
  prev: Cursor,
  opts: { maxLineBytes: number; fallbackTimestamp: string; zone: string },
): Promise<{ from: Mark; turns: Turn[] }> {
  if (prev.contextOffset === undefined || prev.contextTurns === undefined)
    return { from: { offset: prev.offset, turns: prev.turns }, turns: [] };
  const from = { offset: prev.contextOffset, turns: prev.contextTurns };
  const stream = openTranscript(file, kind, {
    ...opts,
    fromOffset: from.offset,
    toOffset: prev.offset,
    fromIndex: from.turns,
    toolNames: prev.pendingTools ?? {},
  });
  const turns: Turn[] = [];
  for await (const turn of stream.turns) turns.push(turn);
  return { from, turns };
}

/** The 1-based line that ends at byte `end` (a warning names it; read only when one is given). */
export async function lineAt(file: string, end: number): Promise<number> {
  let lines = 0;
  let seen = 0;
  for await (const chunk of fs.createReadStream(file, { end: Math.max(0, end - 1) }) as AsyncIterable<Buffer>) {
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) if (seen + i < end - 1) lines++;
    seen += chunk.length;
  }
  return lines + 1;
}
