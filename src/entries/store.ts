/**
 * Reads every entry of the workspace's memory folder (daily files, recent/, projects/, archive/).
 * Read-only: the write path re-reads a file under its lock before changing it.
 */
import fs from 'node:fs';
import path from 'node:path';
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
  return entryBlocks(parseBlocks(text)).map((block) => ({ file, block, entry: block.entry, id: getField(block.entry, 'id') ?? '' }));
}

export interface MemoryFile {
  /** Workspace-relative path with `/`. */
  file: string;
  text: string;
}

export async function readMemoryFiles(workspace: string, files?: string[]): Promise<MemoryFile[]> {
  const out: MemoryFile[] = [];
  for (const file of files ?? (await listMemoryFiles(workspace))) {
    out.push({ file, text: await fs.promises.readFile(path.join(workspace, file), 'utf8').catch(() => '') });
  }
  return out;
}

export async function loadEntries(workspace: string, files?: string[]): Promise<EntryRecord[]> {
  return (await readMemoryFiles(workspace, files)).flatMap((f) => recordsOf(f.file, f.text));
}
