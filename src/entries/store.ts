/**
 * Reads every entry of the workspace's memory folder (daily files, recent/, projects/, archive/).
 * Read-only: the write path re-reads a file under its lock before changing it. A file that is not
 * UTF-8 is read with U+FFFD for its bad bytes (fine to search or show) and marked with its first bad
 * lines: a job writing text made from entries takes loadUtf8Entries, so U+FFFD is never written for good.
 */
import fs from 'node:fs';
import path from 'node:path';
import { decodeUtf8 } from '../core/strict-utf8.js';
import { markdownFilesUnder } from '../workspace/markdown-files.js';
import { getField, type Entry } from './model.js';
import { entryBlocks, parseBlocks, type EntryBlock } from './parse.js';

export interface EntryRecord {
  /** Workspace-relative path with `/`. */
  file: string;
  block: EntryBlock;
  entry: Entry;
  id: string;
}

export async function listMemoryFiles(workspace: string): Promise<string[]> {
  return markdownFilesUnder(path.join(workspace, 'memory')).map((n) => `memory/${n}`);
}

export function recordsOf(file: string, text: string): EntryRecord[] {
  return entryBlocks(parseBlocks(text)).map((block) => ({
    file,
    block,
    entry: block.entry,
    id: getField(block.entry, 'id') ?? '',
  }));
}

export interface MemoryFile {
  /** Workspace-relative path with `/`. */
  file: string;
  text: string;
  /** The lines (1-based) holding bytes that are not UTF-8, which `text` shows as U+FFFD; absent when there are none. */
  badLines?: number[];
}

function readOrEmpty(abs: string): Buffer {
  try {
    return fs.readFileSync(abs);
  } catch {
    return Buffer.alloc(0);
  }
}

export async function readMemoryFiles(workspace: string, files?: string[]): Promise<MemoryFile[]> {
  const out: MemoryFile[] = [];
  for (const file of files ?? (await listMemoryFiles(workspace))) {
    // Synchronous: one file after another either way, and a one-shot `mem get` then never starts libuv's thread pool (2-15 ms).
    const bytes = readOrEmpty(path.join(workspace, file));
    const decoded = decodeUtf8(bytes);
    out.push(
      'text' in decoded
        ? { file, text: decoded.text }
        : { file, text: bytes.toString('utf8'), badLines: decoded.badLines },
    );
  }
  return out;
}

export async function loadEntries(workspace: string, files?: string[]): Promise<EntryRecord[]> {
  return (await readMemoryFiles(workspace, files)).flatMap((f) => recordsOf(f.file, f.text));
}

/** An entry holding bytes that are not UTF-8 (read as U+FFFD), with the first such line. */
export interface GarbledEntry {
  record: EntryRecord;
  badLine: number;
}

/** The entries, and apart those holding bytes that are not UTF-8 (the other entries of their file are kept). */
export async function loadUtf8Entries(workspace: string): Promise<{ records: EntryRecord[]; garbled: GarbledEntry[] }> {
  const records: EntryRecord[] = [];
  const garbled: GarbledEntry[] = [];
  for (const f of await readMemoryFiles(workspace)) {
    for (const record of recordsOf(f.file, f.text)) {
      const badLine = f.badLines?.find((l) => l >= record.block.startLine && l <= record.block.endLine);
      if (badLine === undefined) records.push(record);
      else garbled.push({ record, badLine });
    }
  }
  return { records, garbled };
}

/** One line on an entry holding bytes that are not UTF-8 and what the job did about it (`outcome`). */
export function garbledMessage({ record, badLine }: GarbledEntry, outcome: string): string {
  return `${record.file}:${badLine}: ${record.id || 'entry'}: not valid UTF-8, so ${outcome}; convert the file to UTF-8 (e.g. iconv -f latin1 -t utf-8) and run again`;
}
