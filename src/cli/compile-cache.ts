/**
 * Loads the CommonJS bundles bin/mem.cjs runs (search.cjs, index.cjs) with a V8 code cache, as Node
 * 22's module.enableCompileCache does and Node 20 has no way to: compiling them is about 12 ms of a
 * one-edit `mem index` at 10,000 files (issue #3). Bundled alone into dist/cli/load.cjs
 * (scripts/bundle.mjs).
 *
 * The cache is a file per bundle in `$XDG_CACHE_HOME/memfold/compile-cache` (default
 * `~/.cache/memfold/compile-cache`; `MEM_COMPILE_CACHE` names another folder, or `off`), written at
 * exit by a run that found none (so it holds the functions that run compiled), never in a workspace.
 * A cache written by a run that did not do the bundle's main work (an index with nothing to update,
 * or a rebuild whose work ran on worker threads) is marked partial, and is written once more by the
 * first run that did (mainWorkDone): a partial cache made a one-edit `mem index` at 10,000 files
 * 7 ms slower, for good, after an upgrade whose first run rebuilt the index.
 * V8 checks little of what it is given in a release build (a header, the source's length), and
 * damaged data crashes it, so:
 * - the name holds the bundle file's size, mtime, ctime and inode (read from the descriptor the text
 *   is read from) and Node's version: a new build or another Node is another file; its prefix holds
 *   a checksum of the bundle's path and Node's flags, so two installs or two flag sets keep theirs;
 * - the data carries its CRC-32, checked before V8 sees it (node:zlib: 1.4 ms to load, where
 *   hashing in JavaScript cost 2 ms; node:crypto 1.5 ms);
 * - folder and file must be this user's and writable by no one else (a planted cache would run as
 *   code), and the folder is made only inside one of this user's own (never a root-owned ~/.cache
 *   under sudo).
 * Anything that does not check out is ignored and written afresh; a failure to read or write only
 * means a slower start.
 */
import fs from 'node:fs';
import Module, { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { crc32 } from 'node:zlib';

const OFF = new Set(['off', '0', 'false', 'no', 'none']);
/** The cache file's layout (a checksum, the full/partial byte, V8's data), part of its name. */
const FORMAT = 2;
/** A cache file no run has replaced for this long is removed (another install's, a Node long gone). */
const STALE_MS = 30 * 24 * 3600 * 1000;

/** The folder, or null when the cache is off. */
export function cacheDir(env: NodeJS.ProcessEnv): string | null {
  const setting = env.MEM_COMPILE_CACHE;
  if (setting !== undefined && OFF.has(setting.toLowerCase())) return null;
  if (setting) return path.resolve(setting);
  const base = env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : path.join(os.homedir(), '.cache');
  return path.join(base, 'memfold', 'compile-cache');
}

const uid = process.getuid?.();
/** This user's, and writable by no one else (always, where there are no user ids). */
const ownOnly = (st: fs.Stats) => uid === undefined || (st.uid === uid && (st.mode & 0o022) === 0);

function trustedDir(dir: string): boolean {
  const st = fs.statSync(dir, { throwIfNoEntry: false });
  return !!st?.isDirectory() && ownOnly(st);
}

/** Makes the folder, unless the nearest one that exists is another user's (root's /tmp is fine). */
function madeDir(dir: string): boolean {
  let base = dir;
  while (!fs.existsSync(base)) {
    if (path.dirname(base) === base) return false;
    base = path.dirname(base);
  }
  const owner = fs.statSync(base).uid;
  if (base !== dir && uid !== undefined && owner !== uid && owner !== 0) return false;
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  return trustedDir(dir);
}

/** The cached data and whether a run that did the main work wrote it, when the file is this user's own and its checksum holds. */
function readCache(file: string): { data: Buffer; full: boolean } | undefined {
  const fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile() || !ownOnly(st)) return undefined;
    const bytes = fs.readFileSync(fd);
    // A checksum of the rest, then a byte that says full (1) or partial (0), then V8's data.
    const rest = bytes.subarray(4);
    return bytes.length > 5 && bytes.readUInt32LE(0) === crc32(rest) ? { data: rest.subarray(1), full: rest[0] === 1 } : undefined;
  } finally {
    fs.closeSync(fd);
  }
}

function writeCache(dir: string, name: string, data: Buffer, full: boolean): void {
  const tmp = path.join(dir, `.${name}.${process.pid}.tmp`);
  const rest = Buffer.concat([Buffer.from([full ? 1 : 0]), data]);
  const head = Buffer.alloc(4);
  head.writeUInt32LE(crc32(rest));
  try {
    fs.writeFileSync(tmp, Buffer.concat([head, rest]), { mode: 0o600, flag: 'wx' });
    fs.renameSync(tmp, path.join(dir, name));
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

/** Removes this install's earlier caches of the bundle, and any cache left alone for a month. */
function prune(dir: string, prefix: string, keep: string): void {
  for (const name of fs.readdirSync(dir)) {
    if (name === keep) continue;
    const file = path.join(dir, name);
    if (name.startsWith(prefix) || Date.now() - (fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > STALE_MS) fs.rmSync(file, { force: true });
  }
}

/** Bundles to cache at exit: `always` when none could be used, else only once the main work was done. */
const toWrite: { script: vm.Script; dir: string; name: string; prefix: string; always: boolean }[] = [];
let mainWork = false;

/** This run did its bundle's main work: a partial cache it found is written again, whole, at exit. */
export function mainWorkDone(): void {
  mainWork = true;
}

function writeAll(): void {
  for (const { script, dir, name, prefix, always } of toWrite.splice(0)) {
    if (!always && !mainWork) continue;
    try {
      // A folder this run cannot write to: not even the cost of serialising the code.
      if (!madeDir(dir)) return;
      fs.accessSync(dir, fs.constants.W_OK);
      writeCache(dir, name, script.createCachedData(), mainWork);
      prune(dir, prefix, name);
    } catch {
      // A read-only or full disk: the next run compiles again.
    }
  }
}

/** The bundle's text, and the name of its cache: both from one descriptor, so a build landing between them cannot pair them wrongly. */
function readBundle(file: string): { source: string; prefix: string; name: string } {
  const fd = fs.openSync(file, 'r');
  try {
    const st = fs.fstatSync(fd);
    const source = fs.readFileSync(fd, 'utf8');
    // FORMAT: a file of another layout (before the full/partial byte) is never read as this one.
    const where = crc32(`${FORMAT}\0${file}\0${process.execArgv.join(' ')}\0${process.env.NODE_OPTIONS ?? ''}`).toString(36);
    const prefix = `${path.basename(file)}-${where}-`;
    return { source, prefix, name: `${prefix}${[st.size, st.mtimeMs, st.ctimeMs, st.ino, process.version, process.arch].join('-')}` };
  } finally {
    fs.closeSync(fd);
  }
}

/** require(file) for a bundle, compiled from (and, when missing, into) the code cache. */
export function loadBundle(file: string, env: NodeJS.ProcessEnv = process.env): unknown {
  const dir = cacheDir(env);
  if (!dir) return createRequire(file)(file);
  const { source, prefix, name } = readBundle(file);
  let cached: { data: Buffer; full: boolean } | undefined;
  try {
    if (trustedDir(dir)) cached = readCache(path.join(dir, name));
  } catch {
    // No cache yet.
  }
  const cachedData = cached?.data;
  // No import() may run in code compiled so (Node 20 has no loader for it that survives the cache):
  // the bundles have none (scripts/bundle.mjs turns those of Node's own modules into require).
  const script = new vm.Script(Module.wrap(source), { filename: file, cachedData });
  const usable = !!cachedData && !script.cachedDataRejected;
  if (!usable || !cached?.full) {
    if (!toWrite.length) process.once('exit', writeAll);
    toWrite.push({ script, dir, name, prefix, always: !usable });
  }
  const mod = new Module(file);
  mod.filename = file;
  const req = createRequire(file);
  req.cache[file] = mod; // as require would: require(file) elsewhere gets this module
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(mod.exports, mod.exports, req, mod, file, path.dirname(file));
  mod.loaded = true;
  return mod.exports;
}
