/**
 * Replacing a whole file only if nobody wrote it since it was read. memfold's own writers share the
 * write lock; a person does not: an `>>` append or an editor's save between a job's read and its
 * rename was silently lost. So before the rename the file must be what was planned on (size, mtime,
 * inode, content hash); and the window between that check and the rename is closed too: the old file
 * is hard-linked aside first, and if its bytes changed by the time the new file is in place, the
 * person's version is put back and the caller re-plans on it. Never a write of stale content.
 */
import fs from 'node:fs';
import path from 'node:path';
import { MemError, writeRefused } from '../core/errors.js';
import { testHook } from '../core/test-hooks.js';
import { ensureDir, preserveMode, syncDir, tempName, writeTemp } from './atomic.js';
import { hashOf, sameFile, snapshot, type Snapshot } from './settled-read.js';

export type Replaced = 'done' | 'changed';

/** Writes `data` to `abs` atomically if it is still `base` (undefined: still absent); 'changed' leaves every byte as it was. */
export async function replaceIfUnchanged(
  abs: string,
  rel: string,
  base: Snapshot | undefined,
  data: string | Uint8Array,
  tmpDir?: string,
): Promise<Replaced> {
  try {
    return await replace(abs, rel, base, data, tmpDir);
  } catch (err) {
    // EACCES, EROFS, ENOSPC, EDQUOT: one line naming the file, not the temp file the errno carries.
    throw err instanceof MemError ? err : writeRefused(err, rel, 'the file is unchanged');
  }
}

async function replace(
  abs: string,
  rel: string,
  base: Snapshot | undefined,
  data: string | Uint8Array,
  tmpDir?: string,
): Promise<Replaced> {
  if (tmpDir) await ensureDir(path.dirname(abs));
  const tmp = await writeTemp(tmpDir ? path.join(tmpDir, path.basename(abs)) : abs, data);
  const cleanup = () => fs.promises.rm(tmp, { force: true }).catch(() => {});
  try {
    if (!sameFile(base, await snapshot(abs, rel))) return 'changed';
    await pauseBeforeRename(rel);
    if (!base) return (await createExclusive(tmp, abs)) ? 'done' : 'changed';
    await preserveMode(abs, tmp);
    const aside = await linkAside(abs, tmpDir);
    if (aside === null) return 'changed';
    await fs.promises.rename(tmp, abs);
    await syncDir(path.dirname(abs));
    if (!aside) return 'done';
    return await settleAside(abs, rel, base, aside, data);
  } finally {
    await cleanup();
  }
}

/** A hard link to the file as it is (null: it is gone; undefined: links are not supported here). */
async function linkAside(abs: string, tmpDir: string | undefined): Promise<string | null | undefined> {
  const aside = tempName(tmpDir ? path.join(tmpDir, path.basename(abs)) : abs, '-old');
  try {
    await fs.promises.link(abs, aside);
    return aside;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    return undefined;
  }
}

/** The old file's bytes after the rename: unchanged, done; written meanwhile, the person's version goes back. */
async function settleAside(
  abs: string,
  rel: string,
  base: Snapshot,
  aside: string,
  data: string | Uint8Array,
): Promise<Replaced> {
  try {
    const old = await snapshot(aside, rel);
    if (old && old.size === base.size && old.mtimeMs === base.mtimeMs && old.hash === base.hash) return 'done';
    const now = await snapshot(abs, rel);
    if (now && now.hash === hashOf(Buffer.from(data))) {
      await fs.promises.rename(aside, abs);
      return 'changed';
    }
    throw new MemError(
      'FILE_CHANGED',
      `${rel} was written by memfold and by someone else at the same moment; the other version is kept in ${path.basename(aside)} beside it — compare and merge by hand`,
    );
  } finally {
    await fs.promises.rm(aside, { force: true }).catch(() => {});
  }
}

/** Creates `abs` from `tmp` only if no file is there (link fails with EEXIST rather than replacing it). */
async function createExclusive(tmp: string, abs: string): Promise<boolean> {
  try {
    await fs.promises.link(tmp, abs);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    // No hard links here: the exclusive open is the next best check.
    if (fs.existsSync(abs)) return false;
    await fs.promises.rename(tmp, abs);
  }
  await syncDir(path.dirname(abs));
  return true;
}

/**
 * Test hook (core/test-hooks.ts; inert without MEM_TEST_HOOKS=1): MEM_FAULT=pause-before-rename stops
 * between the unchanged-check and the rename, says so on stderr, and waits for MEM_FAULT_RELEASE to
 * exist (or MEM_FAULT_MS), so a test writes into the window at a known moment; MEM_FAULT_FILE: only that file.
 */
async function pauseBeforeRename(rel: string): Promise<void> {
  if (testHook('MEM_FAULT') !== 'pause-before-rename') return;
  const only = testHook('MEM_FAULT_FILE');
  if (only && only !== rel) return;
  const until = Date.now() + Number(testHook('MEM_FAULT_MS') ?? 5000);
  const release = testHook('MEM_FAULT_RELEASE');
  process.stderr.write(`mem-fault: paused before renaming over ${rel}\n`);
  while (Date.now() < until && !(release && fs.existsSync(release))) await new Promise((r) => setTimeout(r, 20));
  if (release) await fs.promises.rm(release, { force: true });
}
