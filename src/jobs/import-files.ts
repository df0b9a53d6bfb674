/**
 * The files `mem import` reads: OpenClaw → MEMORY.md and memory/**.md under the folder; claude-md →
 * the CLAUDE.md. The walk never follows a link to a folder (a link back up the tree loops forever, one
 * elsewhere could lead anywhere) and reads only regular files: a FIFO named `*.md` would block the
 * import forever. What is skipped gets one warning line each, found by stat alone, never opened.
 * A file is read as strict UTF-8 (../core/strict-utf8.ts): decoding a Latin-1 `Caf\xe9` the usual way
 * wrote U+FFFD into memory for good. Such a file found in a folder is skipped with a warning naming
 * its first bad line, as a FIFO there is; the one file import was given is refused.
 */
import fs from 'node:fs';
import path from 'node:path';
import { MemError } from '../core/errors.js';
import { notRegularFile } from '../core/regular-file.js';
import { decodeUtf8 } from '../core/strict-utf8.js';
import { expandHome, tildePath } from '../workspace/locate.js';

export interface ImportFile {
  path: string;
  text: string;
}

export interface ImportFiles {
  files: ImportFile[];
  warnings: string[];
}

/** The paths to read; `walked`: found in a folder (then one that cannot be read is skipped), not given. */
interface ImportPaths {
  paths: string[];
  warnings: string[];
  walked: boolean;
}

export const skipped = (abs: string, why: string) => `skipped ${tildePath(abs)}: ${why}`;

export function isFolder(abs: string): boolean {
  try {
    return fs.statSync(abs, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return false;
  }
}

/** The `.md` regular files under `dir` (unsorted); links to folders are not followed. */
export function markdownUnder(dir: string, warnings: string[]): string[] {
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

export function importFiles(kind: 'openclaw' | 'claude-md', given: string): ImportFiles {
  const { paths, warnings, walked } = importPaths(kind, given);
  return { files: readImportFiles(paths, walked, warnings), warnings };
}

/** The files as strict UTF-8: one found in a folder (`walked`) that is not is skipped with a warning, one given is refused. */
export function readImportFiles(paths: string[], walked: boolean, warnings: string[]): ImportFile[] {
  const files: ImportFile[] = [];
  for (const p of paths) {
    const decoded = decodeUtf8(fs.readFileSync(p));
    if ('text' in decoded) files.push({ path: p, text: decoded.text });
    else if (walked)
      warnings.push(
        skipped(p, `line ${decoded.badLines[0]} is not valid UTF-8 (convert it, e.g. iconv -f latin1 -t utf-8)`),
      );
    else
      throw new MemError(
        'SOURCE_UNREADABLE',
        `${tildePath(p)}: line ${decoded.badLines[0]} is not valid UTF-8, so nothing was imported; convert it to UTF-8 (e.g. iconv -f latin1 -t utf-8) and run again`,
      );
  }
  return files;
}

function importPaths(kind: 'openclaw' | 'claude-md', given: string): ImportPaths {
  const abs = path.resolve(expandHome(given));
  const st = fs.statSync(abs, { throwIfNoEntry: false });
  if (!st) throw new MemError('NOT_FOUND', `${given}: no such file or folder`);
  if (st.isFile()) return { paths: [abs], warnings: [], walked: false };
  if (!st.isDirectory())
    throw new MemError('SOURCE_UNREADABLE', `${given} is ${notRegularFile(abs)}: give a file or a folder`);
  if (kind === 'claude-md') {
    const f = path.join(abs, 'CLAUDE.md');
    const why = notRegularFile(f);
    if (why === 'gone') throw new MemError('NOT_FOUND', `${given} has no CLAUDE.md`);
    if (why) throw new MemError('SOURCE_UNREADABLE', `${tildePath(f)} is ${why}: only a regular file is read`);
    return { paths: [f], warnings: [], walked: false };
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
  if (!files.length)
    throw new MemError(
      'NOT_FOUND',
      `${given}: no MEMORY.md and no memory/*.md to import (give an OpenClaw workspace folder)`,
    );
  return { paths: [...new Set(files)], warnings, walked: true };
}

export const IMPORT_KINDS = ['openclaw', 'claude-md', 'codex', 'claude-memory'] as const;

export type ImportKind = (typeof IMPORT_KINDS)[number];
