/**
 * stat(2) for the scan, without a Stats object. fs.statSync makes a Stats object and four Dates per
 * call; at 10,000 files that was a quarter of a 43 ms scan, and its garbage set off a full GC later
 * in a one-edit `mem index` (about 15 ms of a 134 ms run in all). Node's fs binding gives the raw
 * numbers in an array it reuses. It is used only once a check in this process has shown that it
 * gives what fs.statSync gives (the numbers' places are Node's own), and never
 * where Node would warn about process.binding (--pending-deprecation) or does not offer it: then
 * fs.statSync, with the same results.
 */
import fs from 'node:fs';

export interface QuickStat {
  kind: 'file' | 'folder' | 'other';
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

type RawStat = (path: string, bigint: false, req: undefined, throwIfNoEntry: false) => Float64Array | undefined;

// Places in the binding's array (lib/internal/fs/utils.js getStatsFromBinding), and Node's ms.
const MODE = 1;
const SIZE = 8;
const MTIME = 12;
const CTIME = 14;
const ms = (a: Float64Array, at: number) => a[at]! * 1e3 + a[at + 1]! / 1e6;

function kindOf(mode: number): QuickStat['kind'] {
  const type = mode & fs.constants.S_IFMT;
  return type === fs.constants.S_IFREG ? 'file' : type === fs.constants.S_IFDIR ? 'folder' : 'other';
}

function portable(abs: string): QuickStat | undefined {
  const st = fs.statSync(abs, { throwIfNoEntry: false });
  return st && { kind: st.isFile() ? 'file' : st.isDirectory() ? 'folder' : 'other', size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs };
}

function pendingDeprecation(): boolean {
  const flag = '--pending-deprecation';
  return process.execArgv.includes(flag) || (process.env.NODE_OPTIONS ?? '').includes(flag) || process.env.NODE_PENDING_DEPRECATION === '1';
}

/** The binding's stat, or undefined where it is not offered or would print a warning. */
function rawStat(): RawStat | undefined {
  if (pendingDeprecation()) return undefined;
  try {
    const stat = (process as unknown as { binding(name: string): { stat?: unknown } }).binding('fs').stat;
    return typeof stat === 'function' ? (stat as RawStat) : undefined;
  } catch {
    return undefined;
  }
}

function fromRaw(stat: RawStat, abs: string): QuickStat | undefined {
  const a = stat(abs, false, undefined, false);
  return a && { kind: kindOf(a[MODE]!), size: a[SIZE]!, mtimeMs: ms(a, MTIME), ctimeMs: ms(a, CTIME) };
}

const same = (a: QuickStat | undefined, b: QuickStat | undefined) =>
  !!a && !!b && a.kind === b.kind && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;

let chosen: ((abs: string) => QuickStat | undefined) | undefined;

/** Checks the binding against fs.statSync on `probe` (an existing path) once per process. */
function choose(probe: string): (abs: string) => QuickStat | undefined {
  const stat = rawStat();
  try {
    if (stat && same(fromRaw(stat, probe), portable(probe))) return (abs) => fromRaw(stat, abs);
  } catch {
    // The binding's arguments differ in this Node: fs.statSync.
  }
  return portable;
}

/**
 * What a path is once links are followed, with its size, mtime and ctime as fs.statSync gives them;
 * undefined when nothing is there or it cannot be stat'ed (a link loop, a name too long ...). Never
 * throws. `probe` is any path that exists (the folder being listed): the first call checks the fast
 * way against it.
 */
export function quickStat(abs: string, probe: string): QuickStat | undefined {
  chosen ??= choose(probe);
  try {
    return chosen(abs);
  } catch {
    return undefined;
  }
}

/** Whether quickStat took the binding in this process (undefined before its first call); for tests. */
export function quickStatFast(): boolean | undefined {
  return chosen === undefined ? undefined : chosen !== portable;
}
