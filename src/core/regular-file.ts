/**
 * Whether a path found by a folder listing is something to read: a regular file once symlinks are
 * followed. A FIFO named `*.md` would block a reader forever, and a dangling link or a link loop
 * (ELOOP) has nothing to read; all are left out, as if they were not there. Never throws, and never
 * opens the path (stat only).
 */
import fs from 'node:fs';

export function regularFile(abs: string): fs.Stats | undefined {
  try {
    const st = fs.statSync(abs, { throwIfNoEntry: false });
    return st?.isFile() ? st : undefined;
  } catch {
    return undefined;
  }
}

/** What `abs` is when it is not a regular file (`a FIFO`, `a dangling link`, ...), for a warning; undefined for a regular file. */
export function notRegularFile(abs: string): string | undefined {
  let st: fs.Stats | undefined;
  try {
    // lstat only when stat finds nothing: then a link that leads nowhere is told from a path that is gone.
    st = fs.statSync(abs, { throwIfNoEntry: false }) ?? fs.lstatSync(abs, { throwIfNoEntry: false });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ELOOP' ? 'a link loop' : `unreadable (${code ?? (err as Error).message})`;
  }
  if (!st) return 'gone';
  if (st.isFile()) return undefined;
  if (st.isSymbolicLink()) return 'a dangling link';
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isSocket()) return 'a socket';
  return st.isCharacterDevice() || st.isBlockDevice() ? 'a device' : 'not a regular file';
}
