/**
 * Per-file transcript cursors in `.mem/cursors.json` (DESIGN §4): where the last run stopped, and a
 * fingerprint of the bytes before that point. A file that shrank or whose bytes before the cursor
 * changed was rewritten, and is read again from the start; otherwise only new bytes are read.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { CURSORS_FILE } from '../../workspace/layout.js';

const PROBE = 4096;

export interface Cursor {
  offset: number;
  /** Turns counted before offset, so message ranges continue. */
  turns: number;
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
    const value = JSON.parse(text) as { version?: number; files?: Cursors };
    if (value.version === 1 && value.files && typeof value.files === 'object') return { cursors: value.files };
  } catch {
    /* fall through: a damaged cursor file only costs a re-read */
  }
  return { cursors: {}, warning: `${CURSORS_FILE} was unreadable; transcripts are read again (ids keep this idempotent)` };
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
    return { head: await hashRange(fd, 0, Math.min(offset, PROBE)), tail: await hashRange(fd, Math.max(0, offset - PROBE), offset) };
  } finally {
    await fd.close();
  }
}

export type CursorCheck = { state: 'none' } | { state: 'unchanged' } | { state: 'grown' } | { state: 'rewritten'; why: string };

export async function checkCursor(file: string, cursor: Cursor | undefined, st: fs.Stats): Promise<CursorCheck> {
  if (!cursor) return { state: 'none' };
  if (st.size < cursor.offset) return { state: 'rewritten', why: `shrank from ${cursor.offset} to ${st.size} bytes` };
  const fp = await fingerprint(file, cursor.offset);
  if (fp.head !== cursor.head || fp.tail !== cursor.tail) return { state: 'rewritten', why: 'bytes before the cursor changed' };
  return st.size === cursor.offset ? { state: 'unchanged' } : { state: 'grown' };
}
