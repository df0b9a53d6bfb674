/**
 * Where `mem export --out FILE` may write, judged on the real path it lands on (every link
 * followed): a path string alone let `-C <link to the workspace> export --out <real path>/memory/x.md`
 * write into the memory. Never inside the memory (the copy would be read as a second set of entries),
 * over the workspace's configuration, or inside a `.git` folder (`--out .git/config` broke the
 * repository): no `--force` gets round these. A file already there is replaced only when it is a
 * previous export or empty, or with `--force`; any file used to be replaced without a word
 * (`--out mem.config.json` replaced the configuration).
 */
import fs from 'node:fs';
import path from 'node:path';
import { CONFIG_FILE, LOCAL_CONFIG_FILE } from '../config/files.js';
import { MemError } from '../core/errors.js';

interface Target {
  /** The landing path relative to the workspace (`/`-separated), or undefined outside it. */
  inWorkspace: string | undefined;
  /** The landing path's names, outermost first. */
  names: string[];
  /** A regular file with content stands there, and it is not a previous export. */
  replacesOther: boolean;
}

/** Why the export may not be written there, or undefined when it may (pure). */
function refusalOf(out: string, t: Target, force: boolean): string | undefined {
  const rel = t.inWorkspace;
  if (rel !== undefined && /^(MEMORY\.md$|memory\/|second-brain\/|\.mem\/)/.test(rel))
    return `--out ${out} is inside the workspace's memory (${rel}); write the export elsewhere`;
  if (rel === CONFIG_FILE || rel === LOCAL_CONFIG_FILE)
    return `--out ${out} is the workspace's configuration (${rel}); write the export elsewhere`;
  if (t.names.includes('.git')) return `--out ${out} is inside a .git folder; write the export elsewhere`;
  if (t.replacesOther && !force)
    return `--out ${out} is a file that is not a memfold export; pass --force to replace it, or write the export elsewhere`;
  return undefined;
}

/**
 * Where writing `abs` lands, every link followed: its real path, or for a path not there yet (or a
 * link to one) the real path of its nearest existing folder with the rest.
 */
function landing(abs: string, hops = 0): string {
  try {
    return fs.realpathSync(abs);
  } catch {
    // Not there yet, or a link to a path not there yet: follow the link by hand, at most as far as the OS would.
  }
  if (hops < 40 && fs.lstatSync(abs, { throwIfNoEntry: false })?.isSymbolicLink()) {
    return landing(path.resolve(path.dirname(abs), fs.readlinkSync(abs)), hops + 1);
  }
  const parent = path.dirname(abs);
  return parent === abs ? abs : path.join(landing(parent, hops), path.basename(abs));
}

/** How a file `mem export` wrote begins: JSON's first key, or the Markdown title (./export.ts). */
const EXPORT_HEAD = /^(?:\{\s*"exportedAt":|# memfold export\n)/;

function replacesOther(file: string): boolean {
  const st = fs.statSync(file, { throwIfNoEntry: false });
  // A FIFO or device (`--out /dev/null`) is written through and never opened here: a FIFO would block.
  if (!st?.isFile() || st.size === 0) return false;
  const head = Buffer.alloc(64);
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, 'r');
    return !EXPORT_HEAD.test(head.toString('utf8', 0, fs.readSync(fd, head)));
  } catch {
    return true; // unreadable: not known to be an export
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** The absolute path to write, or a USAGE error naming why not. */
export function exportTarget(workspace: string, out: string, force: boolean): string {
  const abs = path.resolve(out);
  const real = landing(abs);
  const rel = path.relative(fs.realpathSync(workspace), real).split(path.sep).join('/');
  const inWorkspace = rel.startsWith('..') || path.isAbsolute(rel) ? undefined : rel;
  const refusal = refusalOf(
    out,
    { inWorkspace, names: real.split(path.sep), replacesOther: replacesOther(real) },
    force,
  );
  if (refusal) throw new MemError('USAGE', refusal);
  return abs;
}
