/**
 * Reading a file a person may be writing at this moment. An editor saving in place (vim with
 * `backupcopy=yes`) truncates the file and writes it back in chunks; a job that read it half-saved
 * and wrote that back lost the other half. So a file is read only once it has been quiet for a
 * moment (its mtime settled) and two reads agree; a file still changing is waited for, and after
 * `maxWaitMs` the job gives up (FILE_CHANGED, exit 3) without writing anything.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { MemError, writeRefused } from '../core/errors.js';

/** What a job planned on: the bytes and the file's identity when read. */
export interface Snapshot {
  bytes: Buffer;
  size: number;
  mtimeMs: number;
  ino: number;
  hash: string;
}

/** How long a file must have been untouched before it is read for a write (an editor's chunk gap). */
export const QUIET_MS = 100;
const MAX_WAIT_MS = 10_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const hashOf = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The file as it is now (no waiting), or undefined when it does not exist. */
export async function snapshot(abs: string, rel: string): Promise<Snapshot | undefined> {
  try {
    const st = await fs.promises.stat(abs);
    const bytes = await fs.promises.readFile(abs);
    return { bytes, size: st.size, mtimeMs: st.mtimeMs, ino: st.ino, hash: hashOf(bytes) };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw writeRefused(err, rel, 'nothing was written');
  }
}

/** Whether two snapshots are the same file with the same bytes. */
export function sameFile(a: Snapshot | undefined, b: Snapshot | undefined): boolean {
  if (!a || !b) return a === b;
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino && a.hash === b.hash;
}

/**
 * The file once it holds still: untouched for QUIET_MS, and the same on a second read (not shrunk,
 * not grown). Undefined when it does not exist.
 */
export async function settledRead(abs: string, rel: string, maxWaitMs = MAX_WAIT_MS): Promise<Snapshot | undefined> {
  const deadline = Date.now() + maxWaitMs;
  let first = await snapshot(abs, rel);
  for (;;) {
    if (!first) return undefined;
    const age = Date.now() - first.mtimeMs;
    if (!quiet(first)) await sleep(QUIET_MS - Math.max(0, age));
    const second = await snapshot(abs, rel);
    if (sameFile(first, second) && quiet(second!)) return second;
    if (Date.now() >= deadline) throw stillWritten(rel, maxWaitMs);
    first = second;
  }
}

/** Untouched for QUIET_MS; an mtime well in the future (a clock off elsewhere) counts as quiet. */
function quiet(s: Snapshot): boolean {
  const age = Date.now() - s.mtimeMs;
  return age >= QUIET_MS || age < -1000;
}

export function stillWritten(rel: string, waitedMs: number): MemError {
  return new MemError(
    'FILE_CHANGED',
    `${rel} kept changing while memfold waited to write it (${Math.round(waitedMs / 1000)}s; an editor saving?); nothing was written — the next run tries again`,
  );
}
