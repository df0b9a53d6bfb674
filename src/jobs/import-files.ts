/**
 * The files `mem import` reads: OpenClaw → MEMORY.md and memory/**.md under the folder; claude-md →
 * the CLAUDE.md. The walk never follows a link to a folder (a link back up the tree loops forever, one
 * elsewhere could lead anywhere) and reads only regular files: a FIFO named `*.md` would block the
 * import forever. What is skipped gets one warning line each, found by stat alone, never opened.
 */
import fs from 'node:fs';
import path from 'node:path';
import { MemError } from '../core/errors.js';
import { notRegularFile } from '../core/regular-file.js';
import { expandHome, tildePath } from '../workspace/locate.js';
import type { ImportKind } from './import.js';

export interface ImportFiles {
  files: string[];
  warnings: string[];
}

const skipped = (abs: string, why: string) => `skipped ${tildePath(abs)}: ${why}`;

function isFolder(abs: string): boolean {
  try {
    return fs.statSync(abs, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return false;
  }
}

/** The `.md` regular files under `dir` (unsorted); links to folders are not followed. */
function markdownUnder(dir: string, warnings: string[]): string[] {
  const out: string[] = [];
  for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, d.name);
    if (d.isDirectory()) out.push(...markdownUnder(full, warnings));
    else if (d.isSymbolicLink() && isFolder(full)) warnings.push(skipped(full, 'a link to a folder, not followed'));
    else if (d.name.endsWith('.md')) {
      const why = d.isFile() ? undefined : notRegularFile(full);
      if (why) warnings.push(skipped(full, why));
      else out.push(full);
    }
  }
  return out;
}

export function importFiles(kind: ImportKind, given: string): ImportFiles {
  const abs = path.resolve(expandHome(given));
  const st = fs.statSync(abs, { throwIfNoEntry: false });
  if (!st) throw new MemError('NOT_FOUND', `${given}: no such file or folder`);
  if (st.isFile()) return { files: [abs], warnings: [] };
  if (!st.isDirectory()) throw new MemError('SOURCE_UNREADABLE', `${given} is ${notRegularFile(abs)}: give a file or a folder`);
  if (kind === 'claude-md') {
    const f = path.join(abs, 'CLAUDE.md');
    const why = notRegularFile(f);
    if (why === 'gone') throw new MemError('NOT_FOUND', `${given} has no CLAUDE.md`);
    if (why) throw new MemError('SOURCE_UNREADABLE', `${tildePath(f)} is ${why}: only a regular file is read`);
    return { files: [f], warnings: [] };
  }
  const files: string[] = [];
  const warnings: string[] = [];
  for (const name of ['MEMORY.md', 'memory.md']) {
    const f = path.join(abs, name);
    const why = notRegularFile(f);
    if (!why) files.push(f);
    else if (why !== 'gone') warnings.push(skipped(f, why));
  }
  const dir = path.basename(abs) === 'memory' ? abs : path.join(abs, 'memory');
  if (isFolder(dir)) files.push(...markdownUnder(dir, warnings).sort());
  if (!files.length) throw new MemError('NOT_FOUND', `${given}: no MEMORY.md and no memory/*.md to import (give an OpenClaw workspace folder)`);
  return { files: [...new Set(files)], warnings };
}
