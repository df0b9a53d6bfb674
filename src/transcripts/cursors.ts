/**
 * Per-file transcript cursors in `.mem/cursors.json` (DESIGN §4): where the last run stopped, and a
 * fingerprint of the bytes before that point. A file that shrank, whose bytes before the cursor
 * changed, or that was modified without growing was rewritten, and is read again from the start;
 * otherwise only new bytes are read.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { CURSORS_FILE } from '../workspace/layout.js';

const PROBE = 4096;

export interface Cursor {
  offset: number;
  /** Turns counted before offset, so message ranges continue. */
  turns: number;
  /**
   * Where the lines holding the last few turns before offset begin, and the turns counted before
   * there: a resumed read re-reads them as context (a reply needs the proposal it confirms). Only
   * positions are kept, never text. Absent in cursors written before they existed: no context.
   */
  contextOffset?: number;
  contextTurns?: number;
  size: number;
  mtimeMs: number;
  head: string;
  tail: string;
  sessionId?: string;
  /** Tool calls unanswered at offset (name by call id), so a resumed read need not look behind it. */
  pendingTools?: Record<string, string>;
  /** The session was recognised as a scheduler/bot/sub-agent session: skip it for good. */
  skip?: string;
}

export type Cursors = Record<string, Cursor>;

export function loadCursors(workspace: string): { cursors: Cursors; warning?: string } {
  const file = path.join(workspace, CURSORS_FILE);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return { cursors: {} };
  }
  try {
    const value = JSON.parse(text) as { version?: unknown; files?: unknown };
    if (value.version === 1 && isRecord(value.files)) {
      const cursors: Cursors = {};
      const bad: string[] = [];
      for (const [file, entry] of Object.entries(value.files)) {
        if (isCursor(entry)) cursors[file] = entry;
        else bad.push(file);
      }
      if (!bad.length) return { cursors };
      const which =
        bad.length > 1 ? `the entries for ${bad[0]} and ${bad.length - 1} more were` : `the entry for ${bad[0]} was`;
      return {
        cursors,
        warning: `${CURSORS_FILE}: ${which} damaged and dropped; read again (ids keep this idempotent)`,
      };
    }
  } catch {
    /* fall through: a damaged cursor file only costs a re-read */
  }
  return {
    cursors: {},
    warning: `${CURSORS_FILE} was unreadable; transcripts are read again (ids keep this idempotent)`,
  };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const count = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 0;

/** Every field a read relies on, checked: a hand-edited or half-written entry must not crash a run. */
function isCursor(v: unknown): v is Cursor {
  if (!isRecord(v)) return false;
  if (!count(v.offset) || !count(v.turns) || !count(v.size)) return false;
  if (typeof v.mtimeMs !== 'number' || !Number.isFinite(v.mtimeMs)) return false;
  if (typeof v.head !== 'string' || typeof v.tail !== 'string') return false;
  if (v.sessionId !== undefined && typeof v.sessionId !== 'string') return false;
  if (v.skip !== undefined && typeof v.skip !== 'string') return false;
  if (v.contextOffset !== undefined || v.contextTurns !== undefined) {
    if (!count(v.contextOffset) || !count(v.contextTurns)) return false;
    if ((v.contextOffset as number) > (v.offset as number) || (v.contextTurns as number) > (v.turns as number))
      return false;
  }
  if (
    v.pendingTools !== undefined &&
    !(isRecord(v.pendingTools) && Object.values(v.pendingTools).every((n) => typeof n === 'string'))
  )
    return false;
  return true;
}

export function serialiseCursors(cursors: Cursors): string {
  const sorted = Object.fromEntries(Object.entries(cursors).sort(([a], [b]) => a.localeCompare(b)));
  return JSON.stringify({ version: 1, files: sorted }, null, 1) + '\n';
}

async function hashRange(fd: fs.promises.FileHandle, start: number, end: number): Promise<string> {
  const len = Math.max(0, end - start);
  const buf = Buffer.alloc(len);
  if (len) await fd.read(buf, 0, len, start);
  return crypto.createHash('sha256').update(buf).digest('hex').slice(0, 32);
}

export async function fingerprint(file: string, offset: number): Promise<{ head: string; tail: string }> {
  const fd = await fs.promises.open(file, 'r');
  try {
    return {
      head: await hashRange(fd, 0, Math.min(offset, PROBE)),
      tail: await hashRange(fd, Math.max(0, offset - PROBE), offset),
    };
  } finally {
    await fd.close();
  }
}

export type CursorCheck =
  { state: 'none' } | { state: 'unchanged' } | { state: 'grown' } | { state: 'rewritten'; why: string };

export async function checkCursor(file: string, cursor: Cursor | undefined, st: fs.Stats): Promise<CursorCheck> {
  if (!cursor) return { state: 'none' };
  if (st.size < cursor.offset) return { state: 'rewritten', why: `shrank from ${cursor.offset} to ${st.size} bytes` };
  // The fingerprint hashes only the first and the last PROBE bytes before the cursor: an edit between
  // them that kept the size (a secret redacted in place) shows only in the modification time.
  if (st.size === cursor.size && st.mtimeMs !== cursor.mtimeMs)
    return { state: 'rewritten', why: 'changed in place (same size, new modification time)' };
  const fp = await fingerprint(file, cursor.offset);
  if (fp.head !== cursor.head || fp.tail !== cursor.tail)
    return { state: 'rewritten', why: 'bytes before the cursor changed' };
  return st.size === cursor.offset ? { state: 'unchanged' } : { state: 'grown' };
}
