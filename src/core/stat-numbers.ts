/**
 * A file's type, size, mtime and ctime as fs.statSync gives them, without the fs.Stats object: on
 * Node 20 each one builds four Date objects (Node 22 builds them only when asked), and a read without
 * a resident process states every memory file and every summary (10,000 at 10,000 files): those
 * Dates and their garbage were a fifth of a `mem status`. Used by the listing of memory/
 * (entries/heads-files.ts) and the summaries' line counts (workspace/summary-lines.ts).
 *
 * Invariant: the numbers are fs.statSync's to the bit. The direct call is used only on Node < 22, not
 * on Windows, not under --pending-deprecation (process.binding would warn on stderr), when
 * fs.statSync's own text shows the call it makes with these arguments, and after the first file
 * stated both ways gave the same numbers; else every call is fs.statSync.
 */
import fs from 'node:fs';

export interface StatNumbers {
  isFile: boolean;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

/** Node 20's binding: Float64Array [dev, mode, nlink, uid, gid, rdev, blksize, ino, size, blocks, atime s, ns, mtime s, ns, ctime s, ns, …]; undefined when missing and `throwIfNoEntry` is false. */
type RawStat = (path: string, bigint: false, req: undefined, throwIfNoEntry: boolean) => Float64Array | undefined;

const { S_IFMT, S_IFREG } = fs.constants;
/** The call fs.statSync makes on the Node versions whose binding is used directly. */
const SHAPE =
  /binding\.stat\(\s*pathModule\.toNamespacedPath\(path\),\s*options\.bigint,\s*undefined,\s*options\.throwIfNoEntry,?\s*\)/;

/** undefined: not chosen yet; null: fs.statSync. */
let raw: RawStat | null | undefined;

function directStat(): RawStat | null {
  const flags = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`;
  if (Number(process.versions.node.split('.')[0]) >= 22 || process.platform === 'win32') return null;
  if (flags.includes('pending-deprecation') || !SHAPE.test(fs.statSync.toString())) return null;
  try {
    const b = (process as unknown as { binding(name: string): { stat?: unknown } }).binding('fs');
    return typeof b.stat === 'function' ? (b.stat as RawStat).bind(b) : null;
  } catch {
    return null;
  }
}

const ms = (sec: number, nsec: number) => sec * 1e3 + nsec / 1e6;

function viaStatSync(abs: string): StatNumbers | undefined {
  const st = fs.statSync(abs, { throwIfNoEntry: false });
  return st && { isFile: st.isFile(), size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs };
}

function viaBinding(stat: RawStat, abs: string): StatNumbers | undefined {
  const v = stat(abs, false, undefined, false);
  return (
    v && {
      isFile: ((v[1] ?? 0) & S_IFMT) === S_IFREG,
      size: v[8]!,
      mtimeMs: ms(v[12]!, v[13]!),
      ctimeMs: ms(v[14]!, v[15]!),
    }
  );
}

/** `abs`'s numbers, following links; undefined when nothing is there. Throws what fs.statSync throws otherwise (a loop, a name too long). */
export function statNumbers(abs: string): StatNumbers | undefined {
  if (raw) return viaBinding(raw, abs);
  if (raw === null) return viaStatSync(abs);
  const slow = viaStatSync(abs);
  if (!slow) return undefined;
  let direct = directStat();
  if (direct) {
    try {
      const fast = viaBinding(direct, abs);
      const same =
        !!fast &&
        fast.isFile === slow.isFile &&
        fast.size === slow.size &&
        fast.mtimeMs === slow.mtimeMs &&
        fast.ctimeMs === slow.ctimeMs;
      if (!same) direct = null;
    } catch {
      direct = null;
    }
  }
  raw = direct;
  return slow;
}

/** Which way calls go now (test/stat-numbers.test.ts): chosen at the first file stated. */
export function statNumbersWay(): 'binding' | 'statSync' | 'unchosen' {
  return raw ? 'binding' : raw === null ? 'statSync' : 'unchosen';
}

/** For tests: `false` sends every later call to fs.statSync, `undefined` chooses again at the next call. */
export function resetStatNumbers(direct: false | undefined): void {
  raw = direct === false ? null : undefined;
}
