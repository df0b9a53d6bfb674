/**
 * Whether a path found by a folder listing is something to read: a regular file once symlinks are
 * followed. A FIFO named `*.md` would block a reader forever, and a dangling link or a link loop
 * (ELOOP) has nothing to read; all are left out, as if they were not there. Never throws.
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
