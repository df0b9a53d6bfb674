/**
 * stat(2) for the scan: what a path is once links are followed, with its size, mtime and ctime, as
 * fs.statSync gives them, through Node's public API only (issue 30: no private bindings). Kept as a
 * function of its own so the scan's callers see one small shape, not a Stats object.
 */
import fs from 'node:fs';

export interface QuickStat {
  kind: 'file' | 'folder' | 'other';
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

/** Undefined when nothing is there or it cannot be stat'ed (a link loop, a name too long ...). Never throws. */
export function quickStat(abs: string): QuickStat | undefined {
  try {
    const st = fs.statSync(abs, { throwIfNoEntry: false });
    return (
      st && {
        kind: st.isFile() ? 'file' : st.isDirectory() ? 'folder' : 'other',
        size: st.size,
        mtimeMs: st.mtimeMs,
        ctimeMs: st.ctimeMs,
      }
    );
  } catch {
    return undefined;
  }
}
