/**
 * What `mem forget --hard` removed, kept so no run learns it again from the transcripts it came
 * from (a catch-up or `--since all` back-fill reads them again). Only one-way marks are kept, in
 * `.mem/forgotten.json` (never committed): sha256 of the id, of the normalised conclusion, and of the
 * kind and source turns. Ids are a function of the title and day, so the same statement read again
 * gets the same id; the conclusion mark catches it said again on another day, the source mark a
 * reworded extraction (an LLM's) of the same turns. `mem remember` is not held back: saying it
 * again on purpose is how a person takes a forget back.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { makeId } from '../entries/id.js';
import { getField, getSource, type Entry, type Kind } from '../entries/model.js';
import { normalise } from '../extract/sentences.js';
import type { Candidate } from '../extract/types.js';
import { FORGOTTEN_FILE } from '../workspace/layout.js';
import type { WorkspaceWriter } from '../write/writer.js';

export type ForgottenMarks = ReadonlySet<string>;

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

export const idMark = (id: string): string => sha256(`id:${id}`);

function marks(id: string, kind: string, conclusion: string, source: string | undefined): string[] {
  const text = normalise(conclusion);
  return [idMark(id), ...(text ? [sha256(`conclusion:${text}`)] : []), ...(source ? [sha256(`source:${kind} ${source}`)] : [])];
}

export function entryMarks(id: string, entry: Entry): string[] {
  const s = getSource(entry);
  return marks(id, entry.kind, getField(entry, 'conclusion') ?? '', s?.session_id && s.message_range ? `${s.session_id} ${s.message_range}` : undefined);
}

export function candidateMarks(c: Candidate & { day: string }): string[] {
  return marks(makeId(c.kind as Kind, c.day, c.title), c.kind, c.conclusion, `${c.sessionId} ${c.firstTurn}-${c.lastTurn}`);
}

export const isForgotten = (forgotten: ForgottenMarks, m: string[]): boolean => m.some((x) => forgotten.has(x));

function parseMarks(text: string | undefined): string[] {
  try {
    const v = JSON.parse(text ?? '{}') as { sha256?: unknown };
    return Array.isArray(v.sha256) ? v.sha256.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

/** The marks on record; a missing or damaged file is an empty record. */
export function loadForgotten(workspace: string): ForgottenMarks {
  let text: string | undefined;
  try {
    text = fs.readFileSync(path.join(workspace, FORGOTTEN_FILE), 'utf8');
  } catch {
    /* none yet */
  }
  return new Set(parseMarks(text));
}

export async function recordForgotten(writer: WorkspaceWriter, m: string[]): Promise<void> {
  await writer.update(FORGOTTEN_FILE, (cur) => JSON.stringify({ version: 1, sha256: [...new Set([...parseMarks(cur), ...m])].sort() }, null, 1) + '\n');
}
