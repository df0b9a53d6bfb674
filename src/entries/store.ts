/**
 * Reads every entry of the workspace's memory folder (daily files, recent/, projects/, archive/).
 * Read-only: the write path re-reads a file under its lock before changing it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { regularFile } from '../core/regular-file.js';
import { isTempFile } from '../write/atomic.js';
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
  const root = path.join(workspace, 'memory');
  const names = await fs.promises.readdir(root, { recursive: true }).catch(() => [] as string[]);
  return names
    .map((n) => n.split(path.sep).join('/'))
    .filter((n) => n.endsWith('.md') && !n.startsWith('.locks/') && !isTempFile(path.basename(n)) && regularFile(path.join(root, n)))
    .map((n) => `memory/${n}`)
    .sort();
}

export function recordsOf(file: string, text: string): EntryRecord[] {
  return entryBlocks(parseBlocks(text)).map((block) => ({ file, block, entry: block.entry, id: getField(block.entry, 'id') ?? '' }));
}

export async function loadEntries(workspace: string, files?: string[]): Promise<EntryRecord[]> {
  const out: EntryRecord[] = [];
  for (const file of files ?? (await listMemoryFiles(workspace))) {
    const text = await fs.promises.readFile(path.join(workspace, file), 'utf8').catch(() => '');
    out.push(...recordsOf(file, text));
  }
  return out;
}
