/**
 * Loads the CommonJS bundles bin/mem.cjs runs (first.cjs, search.cjs, index.cjs) with a V8 code
 * cache, as Node 22's module.enableCompileCache does and Node 20 has no way to: compiling the
 * search and index bundles is about 15 ms of a cold `mem search` or `mem index` that takes 160-230 ms
 * at 10,000 files (issue #3). Bundled alone into dist/cli/load.cjs (scripts/bundle.mjs).
 *
 * The cache is a file per bundle in `$XDG_CACHE_HOME/memfold/compile-cache` (default
 * `~/.cache/memfold/compile-cache`; `MEM_COMPILE_CACHE` names another folder, or `off`). It is
 * written when a run finds none (at exit, so it holds the functions the run compiled) and never
 * inside a workspace. V8 trusts what it reads and checks little in a release build (the source's
 * length, not its text), so the file name names the bundle file's size, mtime, ctime and inode and
 * Node's version: any rewrite of the bundle (a build, an upgrade) gives another name. Hashing the
 * text instead would cost 2-3 ms a run (node:crypto's first load and the hash), a fifth of the gain.
 * The folder must be the user's own and not writable by others (a planted cache would run as code);
 * anything else means no cache. A cache is written to a temp file and renamed, so a reader sees a
 * whole one or none. Any failure to read or write the cache only means a slower start.
 */
import fs from 'node:fs';
import Module, { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';

/** The folder, or null when the cache is off. */
export function cacheDir(env: NodeJS.ProcessEnv): string | null {
  const setting = env.MEM_COMPILE_CACHE;
  if (setting === 'off' || setting === '0') return null;
  if (setting) return path.resolve(setting);
  const base = env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : path.join(os.homedir(), '.cache');
  return path.join(base, 'memfold', 'compile-cache');
}

/** The user's own folder, not writable by group or others (a planted cache would run as code). */
function trusted(dir: string): boolean {
  const st = fs.statSync(dir, { throwIfNoEntry: false });
  if (!st?.isDirectory()) return false;
  return process.getuid ? st.uid === process.getuid() && (st.mode & 0o022) === 0 : true;
}

const toWrite: { script: vm.Script; dir: string; name: string; prefix: string }[] = [];

function writeAll(): void {
  for (const { script, dir, name, prefix } of toWrite.splice(0)) {
    try {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      if (!trusted(dir)) return;
      const tmp = path.join(dir, `.${name}.${process.pid}.tmp`);
      fs.writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
      fs.renameSync(tmp, path.join(dir, name));
      // The caches of earlier builds of this bundle are of no more use.
      for (const old of fs.readdirSync(dir)) if (old.startsWith(prefix) && old !== name) fs.rmSync(path.join(dir, old), { force: true });
    } catch {
      // A read-only or full disk: the next run compiles again.
    }
  }
}

/** require(file) for a bundle, compiled from (and, when missing, into) the code cache. */
export function loadBundle(file: string, env: NodeJS.ProcessEnv = process.env): unknown {
  const dir = cacheDir(env);
  if (!dir) return createRequire(file)(file);
  const source = fs.readFileSync(file, 'utf8');
  const st = fs.statSync(file);
  const prefix = `${path.basename(file)}-`;
  const name = [`${prefix}${st.size}`, st.mtimeMs, st.ctimeMs, st.ino, process.version, process.arch].join('-');
  let cachedData: Buffer | undefined;
  try {
    if (trusted(dir)) cachedData = fs.readFileSync(path.join(dir, name));
  } catch {
    // No cache yet.
  }
  // No import() may run in code compiled so (Node 20 has no loader for it that survives the cache):
  // the bundles have none (scripts/bundle.mjs turns those of Node's own modules into require).
  const script = new vm.Script(Module.wrap(source), { filename: file, cachedData });
  if (!cachedData || script.cachedDataRejected) {
    if (!toWrite.length) process.once('exit', writeAll);
    toWrite.push({ script, dir, name, prefix });
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
