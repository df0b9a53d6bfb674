/**
 * A memory file's records as parsed from its text, and the same kept across calls in a long-lived
 * process (`mem mcp`: a memory_context call parsed the files of its twenty entries every time).
 *
 * Invariant: a kept parse is used only for a file stated now exactly as it was stated before that
 * parse read it (inode, size, mtime, ctime), so a hand edit, even one keeping the size, is parsed
 * again; at most WHOLE_FILES_KEPT files are kept, the least recently used dropped first.
 */
import fs from 'node:fs';
import path from 'node:path';
import { readMemoryFiles, recordsOf, type EntryRecord } from './store.js';

export const parseFile = async (workspace: string, file: string): Promise<EntryRecord[]> =>
  (await readMemoryFiles(workspace, [file])).flatMap((f) => recordsOf(f.file, f.text));

const wholeFiles = new Map<string, { stamp: string; records: Promise<EntryRecord[]> }>();
const WHOLE_FILES_KEPT = 128;

/** The file's records: the kept parse while the file is stated as it was, else a new one (kept). */
export function parsedNow(workspace: string, file: string): Promise<EntryRecord[]> {
  const abs = path.join(workspace, file);
  const st = fs.statSync(abs, { throwIfNoEntry: false });
  if (!st) return parseFile(workspace, file);
  const stamp = `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
  const had = wholeFiles.get(abs);
  wholeFiles.delete(abs);
  const records = had?.stamp === stamp ? had.records : parseFile(workspace, file);
  wholeFiles.set(abs, { stamp, records });
  if (wholeFiles.size > WHOLE_FILES_KEPT) wholeFiles.delete(wholeFiles.keys().next().value!);
  return records;
}
