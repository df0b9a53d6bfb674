/**
 * The only way memfold writes into a workspace. It knows the calling job, refuses any path outside
 * that job's allowance or outside the workspace (`..`, absolute paths, NUL bytes, symlinked folders
 * pointing elsewhere), writes atomically, and serialises read-modify-write of Markdown files under
 * one workspace write lock so concurrent appends never lose each other.
 */
import fs from 'node:fs';
import path from 'node:path';
import { MemError, writeRefused } from '../core/errors.js';
import { decodeUtf8 } from '../core/strict-utf8.js';
import { mayWrite, type Job } from './allowance.js';
import { removeDeadTempFiles, writeFileAtomic } from './atomic.js';
import { keepLineEnding } from './line-endings.js';
import { withLock, type HeldLock, type LockOptions } from './locks.js';

export const WRITE_LOCK = 'write';

export class WorkspaceWriter {
  private readonly root: string;

  constructor(
    readonly workspace: string,
    readonly job: Job,
    private readonly locks: LockOptions,
    /** The job lock, when held: a write after it was lost is refused. */
    private readonly jobLock?: HeldLock,
  ) {
    this.root = fs.realpathSync(workspace);
  }

  /** Absolute path for a workspace-relative one, or WRITE_DENIED. */
  resolve(rel: string): string {
    if (rel.includes('\0') || path.isAbsolute(rel) || rel.split(/[\\/]/).includes('..')) {
      throw new MemError('WRITE_DENIED', `${this.job}: refused to write "${rel.replaceAll('\0', '\\0')}": not a plain path inside the workspace`);
    }
    const posix = rel.split(path.sep).join('/');
    if (!mayWrite(this.job, posix)) {
      throw new MemError('WRITE_DENIED', `${this.job} may not write ${posix} (see the write allowance in DESIGN §2)`);
    }
    const abs = path.join(this.root, posix);
    const parent = nearestExisting(path.dirname(abs));
    const real = fs.realpathSync(parent);
    if (real !== this.root && !real.startsWith(this.root + path.sep)) {
      throw new MemError('WRITE_DENIED', `${this.job}: refused to write ${posix}: ${path.relative(this.root, parent)} leads outside the workspace`);
    }
    return abs;
  }

  async write(rel: string, data: string | Uint8Array): Promise<void> {
    const abs = this.resolve(rel);
    this.checkLock();
    await removeDeadTempFiles(path.dirname(abs));
    await writeFileAtomic(abs, data, rel);
  }

  /**
   * Read-modify-write under the workspace write lock. `change` gets the current text (undefined when
   * the file does not exist) and returns the new text, or undefined to leave the file alone. Lines
   * it adds to a CRLF file end in CRLF (./line-endings.ts), unless `endingsKept`: a change in several
   * places that kept them itself, as the span from its first to its last change holds lines it left.
   */
  async update(rel: string, change: (current: string | undefined) => string | undefined, { endingsKept = false } = {}): Promise<boolean> {
    const abs = this.resolve(rel);
    return withLock(this.workspace, WRITE_LOCK, this.locks, async (lock) => {
      const bytes = await fs.promises.readFile(abs).catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return undefined;
        throw writeRefused(err, rel, 'nothing was written');
      });
      const current = bytes && decodeStrict(bytes, rel);
      const next = change(current);
      if (next === undefined || next === current) return false;
      this.checkLock(lock);
      // Temp files of writers killed mid-write are swept where the next write lands.
      await removeDeadTempFiles(path.dirname(abs));
      await writeFileAtomic(abs, endingsKept ? next : keepLineEnding(current, next), rel);
      return true;
    });
  }

  /**
   * Throws as update() would when `rel` cannot be rewritten (not UTF-8), so a job changing several
   * files checks them all before it writes any.
   */
  async checkRewritable(rel: string): Promise<void> {
    const bytes = await fs.promises.readFile(this.resolve(rel)).catch(() => undefined);
    if (bytes) decodeStrict(bytes, rel);
  }

  private checkLock(extra?: HeldLock): void {
    for (const lock of [this.jobLock, extra]) {
      if (lock?.compromised) {
        throw new MemError('LOCK_BUSY', `${this.job}: lost the "${lock.name}" lock (${lock.compromised.message}); stopped before writing`);
      }
    }
  }
}

/** A file memfold rewrites must be UTF-8 (../core/strict-utf8.ts): refused otherwise, naming the first bad line. */
function decodeStrict(bytes: Buffer, rel: string): string {
  const decoded = decodeUtf8(bytes);
  if ('text' in decoded) return decoded.text;
  throw new MemError('WRITE_FAILED', `cannot rewrite ${rel}: line ${decoded.badLines[0]} is not valid UTF-8; convert the file to UTF-8 (e.g. iconv -f latin1 -t utf-8) and run again; nothing was written`);
}

function nearestExisting(dir: string): string {
  let d = dir;
  while (!fs.existsSync(d) && path.dirname(d) !== d) d = path.dirname(d);
  return d;
}
