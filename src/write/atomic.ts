/**
 * Atomic file writes: temp file in the same folder, fsync, rename, fsync the folder. A killed process
 * leaves the old file or the new one, never half of one. Temp files carry a recognisable name
 * (`.<name>.mem-tmp-<pid>-<n>`) so the next run can remove those whose writer died — a generic
 * atomic-write library names them opaquely, which is why this small writer is our own.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeRefused } from '../core/errors.js';
import { pidAlive, processStartedAt } from '../core/process.js';
import { testHook } from '../core/test-hooks.js';

const TMP_MARK = '.mem-tmp-';
let counter = 0;

export async function writeFileAtomic(
  file: string,
  data: string | Uint8Array,
  label = file,
  tmpDir?: string,
): Promise<void> {
  try {
    await writeThenRename(file, data, tmpDir).catch((err: NodeJS.ErrnoException) => {
      // A temp folder on another file system: rename cannot cross it, so the temp file goes beside the file.
      if (err.code === 'EXDEV' && tmpDir) return writeThenRename(file, data);
      throw err;
    });
  } catch (err) {
    // EACCES, EROFS, ENOSPC, EDQUOT: one line naming the file, not the temp file the errno carries.
    throw writeRefused(err, label, 'the file is unchanged');
  }
}

/**
 * mkdir -p that reports the real reason: Node's recursive mkdir says ENOENT when the file system is
 * read-only (EROFS), so on ENOENT the first missing folder is made on its own to get the true errno;
 * and EEXIST when a file stands where the folder should be, reported as ENOTDIR.
 */
export async function ensureDir(dir: string): Promise<void> {
  try {
    await fs.promises.mkdir(dir, { recursive: true });
  } catch (err) {
    // A file where the folder should be: mkdir says EEXIST, which reads as if all were well.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST')
      throw Object.assign(new Error(`${dir} is a file, not a folder`), { code: 'ENOTDIR', path: dir, cause: err });
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    let missing = dir;
    while (!fs.existsSync(path.dirname(missing)) && path.dirname(missing) !== missing) missing = path.dirname(missing);
    await fs.promises.mkdir(missing).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'EEXIST') throw e;
    });
    await fs.promises.mkdir(dir, { recursive: true });
  }
}

async function writeThenRename(file: string, data: string | Uint8Array, tmpDir?: string): Promise<void> {
  if (tmpDir) await ensureDir(path.dirname(file));
  const tmp = await writeTemp(tmpDir ? path.join(tmpDir, path.basename(file)) : file, data);
  try {
    await preserveMode(file, tmp);
    await fs.promises.rename(tmp, file);
  } catch (err) {
    await fs.promises.rm(tmp, { force: true }).catch(() => {});
    throw err;
  }
  await syncDir(path.dirname(file));
}

/** A temp file beside `file` holding `data`, synced: the first half of an atomic write. */
export async function writeTemp(file: string, data: string | Uint8Array): Promise<string> {
  const dir = path.dirname(file);
  await ensureDir(dir);
  const tmp = tempName(file);
  const handle = await fs.promises.open(tmp, 'wx', 0o644);
  try {
    if (testHook('MEM_FAULT') === 'pause-mid-write') await pauseMidWrite(handle, file, data);
    await handle.writeFile(data);
    await handle.sync();
    await handle.close();
  } catch (err) {
    await handle.close().catch(() => {});
    await fs.promises.rm(tmp, { force: true }).catch(() => {});
    throw err;
  }
  return tmp;
}

/** A recognisable name beside `file` (see removeDeadTempFiles), unique in this process. */
export function tempName(file: string, tag = ''): string {
  return path.join(path.dirname(file), `.${path.basename(file)}${TMP_MARK}${process.pid}-${++counter}${tag}`);
}

/**
 * Fault injection for the crash tests (core/test-hooks.ts; inert without MEM_TEST_HOOKS=1): writes half of the data to the temp
 * file, says so on stderr and waits to be killed, so a test can SIGKILL a writer mid-write on purpose.
 */
async function pauseMidWrite(handle: fs.promises.FileHandle, file: string, data: string | Uint8Array): Promise<never> {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  await handle.write(bytes.subarray(0, Math.floor(bytes.length / 2)));
  await handle.sync();
  process.stderr.write(`mem-fault: paused mid-write of ${file}\n`);
  return new Promise<never>(() => setInterval(() => {}, 60_000));
}

export async function preserveMode(file: string, tmp: string): Promise<void> {
  const st = await fs.promises.stat(file).catch(() => undefined);
  if (st) await fs.promises.chmod(tmp, st.mode & 0o7777);
}

export async function syncDir(dir: string): Promise<void> {
  // Directory fsync makes the rename durable on Linux; some platforms refuse it, which is harmless.
  const h = await fs.promises.open(dir, 'r').catch(() => undefined);
  if (!h) return;
  await h.sync().catch(() => {});
  await h.close();
}

/** Removes temp files left in `dir` (not recursive) by writers that are no longer running. */
export async function removeDeadTempFiles(dir: string): Promise<number> {
  const names = await fs.promises.readdir(dir).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    const at = name.indexOf(TMP_MARK);
    if (!name.startsWith('.') || at < 0) continue;
    const pid = Number(name.slice(at + TMP_MARK.length).split('-')[0]);
    if (pid === process.pid || (Number.isInteger(pid) && pid > 0 && writerAlive(pid, path.join(dir, name)))) continue;
    // Best effort: a folder this user may not write keeps its litter until someone who may writes.
    if (
      await fs.promises.rm(path.join(dir, name), { force: true }).then(
        () => true,
        () => false,
      )
    )
      removed++;
  }
  return removed;
}

/**
 * Removes this process's own temp files in `dir`: left by a worker thread of it that died (it shares
 * the pid, so removeDeadTempFiles keeps them, and their names could come again). Only when no other
 * thread of this process is writing there.
 */
export async function removeOwnTempFiles(dir: string): Promise<void> {
  const names = await fs.promises.readdir(dir).catch(() => [] as string[]);
  const mine = `${TMP_MARK}${process.pid}-`;
  for (const name of names)
    if (name.startsWith('.') && name.includes(mine)) await fs.promises.rm(path.join(dir, name), { force: true });
}

/**
 * Whether the writer `pid` of temp file `file` may still be running: its pid is alive and was not
 * reused by a process started after the file was made (a pid reused by a live process kept dead
 * writers' temp files forever).
 */
function writerAlive(pid: number, file: string): boolean {
  if (!pidAlive(pid)) return false;
  const started = processStartedAt(pid);
  const made = fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs;
  return started === undefined || made === undefined || started <= made + 2000;
}

export function isTempFile(name: string): boolean {
  return name.includes(TMP_MARK);
}

/**
 * A derived file's JSON as written by writeDerivedFile, or undefined when it is missing or cannot be
 * parsed (a crash lost it, a person damaged it): the caller checks its shape and rebuilds otherwise.
 */
export function readDerivedJson(target: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(target, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * A derived file under `.mem/` (the entry table, its heads): temp file and rename, without fsync.
 * A reader sees the old file or the new one; a crash may lose the new one, which costs a rebuild.
 */
export function writeDerivedFile(target: string, text: string): void {
  const tmp = `${target}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(tmp, text);
    fs.renameSync(tmp, target);
  } catch (err) {
    // Renamed, the temp file is gone; only a failed write or rename leaves one (a refresh writes
    // hundreds of these files: removing a file that is not there was a tenth of their cost).
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}
