/**
 * The whole text of a result whose stored text was cut at MAX_TEXT characters (chunk.ts), read again
 * from its file so that a query term past the cut still picks the snippet's line. Null when the text
 * was not cut, or the file is gone, not a regular file, too big to read again for a snippet, or no
 * longer holds the stored text at those lines (edited since it was indexed). A reader reads each
 * result's file once: a caller that needs the whole texts after the search (MCP's redaction) passes
 * its reader to runSearch and asks it again for free.
 */
import fs from 'node:fs';
import path from 'node:path';
import { regularFile } from '../../core/regular-file.js';
import { MAX_TEXT, textLines } from '../text/chunk.js';
import type { SearchResult } from './outcome.js';
import type { WholeTextReader } from './outcome.js';

const MAX_BYTES = 8 * 1024 * 1024;

export function wholeTextReader(workspace: string): WholeTextReader {
  const read = new Map<string, string | null>();
  return (r) => {
    if (r.text.length < MAX_TEXT) return null;
    const key = `${r.path}:${r.startLine}-${r.endLine}`;
    if (!read.has(key)) read.set(key, readWhole(workspace, r));
    return read.get(key) ?? null;
  };
}

function readWhole(workspace: string, r: SearchResult): string | null {
  const file = path.resolve(workspace, r.path);
  const st = regularFile(file);
  if (!st || st.size > MAX_BYTES) return null;
  try {
    const lines = textLines(fs.readFileSync(file, 'utf8'))
      .slice(r.startLine - 1, r.endLine)
      .join('\n');
    return lines.includes(r.text) ? lines : null;
  } catch {
    return null;
  }
}
