/**
 * `mem lint --secrets`: every text file of the workspace scanned for the secret shapes redaction
 * knows, so a key pasted by hand into a Markdown file is caught before it is committed. Reports
 * where and what kind, never the value. Reads only.
 */
import fs from 'node:fs';
import path from 'node:path';
import { looksBinary } from '../core/binary.js';
import { findSecrets } from '../extract/secrets.js';

export interface SecretHit {
  file: string;
  line: number;
  kind: string;
}

/** Folders that are not the user's memory: derived data, locks, VCS and dependencies. */
const SKIP_DIRS = new Set(['.git', '.mem', '.locks', 'node_modules']);
const MAX_FILE_BYTES = 8 * 1024 * 1024;

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

export async function* workspaceFiles(dir: string, root = dir): AsyncGenerator<string> {
  const entries = await fs.promises.readdir(dir, { withFileTypes: true });
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, e.name);
    if (e.isDirectory() && !SKIP_DIRS.has(e.name)) yield* workspaceFiles(full, root);
    else if (e.isFile()) yield path.relative(root, full).split(path.sep).join('/');
  }
}

export async function scanWorkspaceForSecrets(workspace: string): Promise<{ files: number; hits: SecretHit[] }> {
  const hits: SecretHit[] = [];
  let files = 0;
  for await (const rel of workspaceFiles(workspace)) {
    const full = path.join(workspace, rel);
    if ((await fs.promises.stat(full)).size > MAX_FILE_BYTES) continue;
    const buf = await fs.promises.readFile(full);
    if (looksBinary(buf)) continue;
    files++;
    const text = buf.toString('utf8');
    for (const f of findSecrets(text)) hits.push({ file: rel, line: lineAt(text, f.start), kind: f.kind });
  }
  return { files, hits };
}
