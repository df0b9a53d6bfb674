/**
 * The only way memfold writes into a workspace. It knows the calling job, refuses any path outside
 * that job's allowance or outside the workspace (`..`, absolute paths, NUL bytes, symlinked folders
 * pointing elsewhere), writes atomically, and serialises read-modify-write of Markdown files under
 * one workspace write lock so concurrent appends never lose each other. A person writing a file
 * (`>>`, an editor) holds no lock: appends are O_APPEND and rewrites check the file is unchanged.
 */
import fs from 'node:fs';
import path from 'node:path';
import { MemError, writeRefused } from '../core/errors.js';
import { decodeUtf8 } from '../core/strict-utf8.js';
import type { Job } from './allowance.js';
import { writablePath } from './writable-path.js';
import { ensureDir, removeDeadTempFiles, syncDir, tempName, writeFileAtomic } from './atomic.js';
import { keepLineEnding } from './line-endings.js';
import { appendIfUnchanged, planAppend, withoutTornTail } from './append-block.js';
import { replaceIfUnchanged } from './checked-replace.js';
import { LOCK_DIR, withLock, type HeldLock, type LockOptions } from './locks.js';
import { settledRead, snapshot } from './settled-read.js';

export const WRITE_LOCK = 'write';
/** How often a job plans again on a file a person keeps changing before it gives up (exit 3). */
const REPLANS = 4;
/** A file written this recently may still be saved over by an editor that read it before. */
const RECENT_MS = 2000;

function changedMeanwhile(job: Job, rel: string): MemError {
  return new MemError(
    'FILE_CHANGED',
    `${job}: ${rel} changed while memfold was writing it (${REPLANS} tries); nothing was written to it — the next run tries again`,
  );
}

/**
 * For a rewrite planned on a text read before update(): the file no longer holds it (a person's edit,
 * e.g. MEMORY.md's pinned block or a wrap-up). Thrown from update()'s change, so the edit is kept,
 * nothing is written and the job exits 3; the next run plans on the edit.
 */
export function editedSincePlanned(job: Job, rel: string): never {
  throw new MemError(
    'FILE_CHANGED',
    `${job}: ${rel} changed while ${job} was writing it; it was kept as it is and nothing was written to it — the next run plans on it`,
  );
}

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

  /** Absolute path for a workspace-relative one, or WRITE_DENIED (writable-path.ts). */
  resolve(rel: string): string {
    return writablePath(this.root, this.job, rel);
  }

  async write(rel: string, data: string | Uint8Array): Promise<void> {
    const abs = this.resolve(rel);
    this.checkLock();
    await removeDeadTempFiles(path.dirname(abs));
    await writeFileAtomic(abs, data, rel, this.tmpDir(rel));
  }

  /**
   * A temp file beside `rel` (allowance checked now), for a file too big to hold in memory: the
   * caller fills it piece by piece and puts it in place with commitTemp(). A killed writer's temp
   * file carries the recognisable name the next write sweeps. `tag` tells several apart.
   */
  async tempFile(rel: string, tag = ''): Promise<string> {
    const abs = this.resolve(rel);
    await ensureDir(path.dirname(abs));
    await removeDeadTempFiles(path.dirname(abs));
    return tempName(abs, tag);
  }

  /** Puts a temp file from tempFile() in place atomically: fsync, rename, fsync the folder. */
  async commitTemp(rel: string, tmp: string): Promise<void> {
    const abs = this.resolve(rel);
    this.checkLock();
    const h = await fs.promises.open(tmp, 'r+');
    try {
      await h.sync();
    } finally {
      await h.close();
    }
    await fs.promises.rename(tmp, abs);
    await syncDir(path.dirname(abs));
  }

  /**
   * Read-modify-write under the workspace write lock. `change` gets the current text (undefined when
   * the file does not exist) and returns the new text, or undefined to leave the file alone. Lines
   * it adds to a CRLF file end in CRLF (./line-endings.ts), unless `endingsKept`: a change in several
   * places that kept them itself, as the span from its first to its last change holds lines it left.
   * The file is read once it holds still and replaced only if unchanged since (./checked-replace.ts);
   * a person's write in between makes `change` run again on the new text, up to REPLANS times.
   */
  async update(
    rel: string,
    change: (current: string | undefined) => string | undefined,
    { endingsKept = false } = {},
  ): Promise<boolean> {
    const abs = this.resolve(rel);
    return withLock(this.workspace, WRITE_LOCK, this.locks, async (lock) => {
      for (let attempt = 0; attempt < REPLANS; attempt++) {
        // Nobody edits .mem/ by hand: no waiting for it to hold still.
        const base = rel.startsWith('.mem/') ? await snapshot(abs, rel) : await settledRead(abs, rel);
        const current = base && decodeStrict(base.bytes, rel);
        const next = change(current);
        if (next === undefined || next === current) return false;
        this.checkLock(lock);
        // Temp files of writers killed mid-write are swept where the next write lands.
        await this.sweep(abs);
        const text = endingsKept ? next : keepLineEnding(current, next);
        if ((await replaceIfUnchanged(abs, rel, base, text, this.tmpDir(rel))) === 'done') return true;
      }
      throw changedMeanwhile(this.job, rel);
    });
  }

  /**
   * Like update() for a change that only adds at the end (entries to a daily file): the added bytes
   * go in one O_APPEND write, so a person's `>>` at the same moment is never overwritten
   * (./append-block.ts). When someone wrote the file recently, the block is looked for again once the
   * file holds still: an editor's save that covered it gets it appended again, a torn rest of it is cut.
   */
  async append(rel: string, change: (current: string | undefined) => string | undefined): Promise<boolean> {
    const abs = this.resolve(rel);
    return withLock(this.workspace, WRITE_LOCK, this.locks, async (lock) => {
      let block: string | undefined;
      for (let attempt = 0; attempt < REPLANS; attempt++) {
        const base = await settledRead(abs, rel);
        const current = base && decodeStrict(base.bytes, rel);
        if (block !== undefined && current !== undefined) {
          if (current.includes(block)) return true;
          const cut = withoutTornTail(current, block);
          if (cut !== undefined) {
            await replaceIfUnchanged(abs, rel, base, cut, this.tmpDir(rel));
            continue;
          }
        }
        const plan = planAppend(current, change, (before, next) => keepLineEnding(before, next));
        if (!plan) return block !== undefined;
        this.checkLock(lock);
        await this.sweep(abs);
        const { text, added } = plan;
        const r =
          added !== undefined && base
            ? await appendIfUnchanged(abs, rel, base, added)
            : await replaceIfUnchanged(abs, rel, base, text, this.tmpDir(rel));
        if (r === 'changed') continue;
        block = added ?? text;
        // Nobody else touched the file lately: nothing can be saving over the block.
        if (!base || Date.now() - base.mtimeMs > RECENT_MS) return true;
      }
      throw changedMeanwhile(this.job, rel);
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

  /** Where temp files of a workspace file go: the git-ignored lock folder, so `git add -A` after a kill stages none. */
  private tmpDir(rel: string): string | undefined {
    return rel.startsWith('.mem/') ? undefined : path.join(this.root, LOCK_DIR);
  }

  private async sweep(abs: string): Promise<void> {
    await removeDeadTempFiles(path.dirname(abs));
    await removeDeadTempFiles(path.join(this.root, LOCK_DIR));
  }

  private checkLock(extra?: HeldLock): void {
    for (const lock of [this.jobLock, extra]) {
      if (lock?.compromised) {
        throw new MemError(
          'LOCK_BUSY',
          `${this.job}: lost the "${lock.name}" lock (${lock.compromised.message}); stopped before writing`,
        );
      }
    }
  }
}

/** A file memfold rewrites must be UTF-8 (../core/strict-utf8.ts): refused otherwise, naming the first bad line. */
function decodeStrict(bytes: Buffer, rel: string): string {
  const decoded = decodeUtf8(bytes);
  if ('text' in decoded) return decoded.text;
  throw new MemError(
    'WRITE_FAILED',
    `cannot rewrite ${rel}: line ${decoded.badLines[0]} is not valid UTF-8; convert the file to UTF-8 (e.g. iconv -f latin1 -t utf-8) and run again; nothing was written`,
  );
}
