/**
 * stat(2) for the scan, without a Stats object. fs.statSync makes a Stats object and four Dates per
 * call; at 10,000 files that was a quarter of a 43 ms scan, and its garbage set off a full GC later
 * in a one-edit `mem index` (about 15 ms of a 134 ms run in all). Node's fs binding gives the raw
 * numbers in an array it reuses. It is used only once a check in this process has shown that it
 * gives what fs.statSync gives (the numbers' places are Node's own), on POSIX systems (Windows
 * paths need namespacing first), and never where Node would warn about process.binding or does not
 * offer it (node-binding.ts): then fs.statSync, with the same results.
 */
import fs from 'node:fs';
import { nodeBinding } from '../core/node-binding.js';

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

/** The binding's stat, or undefined where it is not offered or could print a warning. */
function rawStat(): RawStat | undefined {
  if (process.platform === 'win32') return undefined;
  const stat = nodeBinding('fs')?.stat;
  return typeof stat === 'function' ? (stat as RawStat) : undefined;
}

function fromRaw(stat: RawStat, abs: string): QuickStat | undefined {
  const a = stat(abs, false, undefined, false);
  return a && { kind: kindOf(a[MODE]!), size: a[SIZE]!, mtimeMs: ms(a, MTIME), ctimeMs: ms(a, CTIME) };
}

const same = (a: QuickStat | undefined, b: QuickStat | undefined) =>
  !!a && !!b && a.kind === b.kind && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;

let chosen: ((abs: string) => QuickStat | undefined) | undefined;

/** Checks the binding against fs.statSync once per process, on Node's own executable (a file nothing changes meanwhile). */
function choose(): (abs: string) => QuickStat | undefined {
  const stat = rawStat();
  try {
    if (stat && same(fromRaw(stat, process.execPath), portable(process.execPath))) return (abs) => fromRaw(stat, abs);
  } catch {
    // The binding throws where fs.statSync does not: fs.statSync.
  }
  return portable;
}

/**
 * What a path is once links are followed, with its size, mtime and ctime as fs.statSync gives them;
 * undefined when nothing is there or it cannot be stat'ed (a link loop, a name too long ...). Never
 * throws.
 */
export function quickStat(abs: string): QuickStat | undefined {
  chosen ??= choose();
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

let lstatRaw: RawStat | null | undefined;

/**
 * Whether `abs` is a symbolic link, by the binding's lstat when quickStat uses the binding (no Stats
 * object at 10,000 files), else fs.lstatSync. Never throws.
 */
export function quickIsLink(abs: string): boolean {
  chosen ??= choose();
  if (lstatRaw === undefined) {
    const l = chosen !== portable ? nodeBinding('fs')?.lstat : undefined;
    lstatRaw = typeof l === 'function' ? (l as RawStat) : null;
  }
  try {
    if (lstatRaw) {
      const a = lstatRaw(abs, false, undefined, false);
      return !!a && (a[MODE]! & fs.constants.S_IFMT) === fs.constants.S_IFLNK;
    }
    return fs.lstatSync(abs, { throwIfNoEntry: false })?.isSymbolicLink() ?? false;
  } catch {
    return false;
  }
}
