/**
 * `mem lint --secrets`: every text file of the workspace scanned for the secret shapes redaction
 * knows, so a key pasted by hand into a Markdown file is caught before it is committed. Reports
 * where and what kind, never the value. Reads only.
 *
 * No text file is left out: a large one is read in windows (secret-windows.ts), one with a stray NUL
 * byte is still text (core/binary.ts dataReason). A file that is data (an image, a gzip, UTF-16) is
 * not scanned, and is reported by name, so nothing is skipped silently. In memory/, each entry's
 * title and id are also checked on their own (entries/name-secrets.ts): a key cut by the title limit,
 * or lower-cased in an id, is no longer a shape the whole-file scan knows.
 */
import fs from 'node:fs';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { dataReason } from '../core/binary.js';
import { secretsInEntryNames } from '../entries/name-secrets.js';
import { secretsInChunks } from './secret-windows.js';

export interface SecretHit {
  file: string;
  line: number;
  kind: string;
  /** Set when the secret is in an entry's title or id, seen on its own (entries/name-secrets.ts). */
  in?: 'title' | 'id';
}

export interface SkippedFile {
  file: string;
  /** Why it is not text: `mostly NUL bytes`, `mostly not UTF-8`. */
  reason: string;
}

export interface SecretScan {
  /** Files scanned as text. */
  files: number;
  hits: SecretHit[];
  skipped: SkippedFile[];
}

/** Folders that are not the user's memory: derived data, locks, VCS and dependencies. */
const SKIP_DIRS = new Set(['.git', '.mem', '.locks', 'node_modules']);
/** Bytes read at a time; the first read is also the block dataReason judges. */
const READ_BYTES = 1024 * 1024;
/** Files whose entries' titles and ids are also checked on their own: memory's Markdown, up to this many characters. */
const ENTRY_FILE = /^memory\/.+\.md$/;
const ENTRY_TEXT_MAX = 16 * 1024 * 1024;

export async function* workspaceFiles(dir: string, root = dir): AsyncGenerator<string> {
  const entries = await fs.promises.readdir(dir, { withFileTypes: true });
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, e.name);
    if (e.isDirectory() && !SKIP_DIRS.has(e.name)) yield* workspaceFiles(full, root);
    else if (e.isFile()) yield path.relative(root, full).split(path.sep).join('/');
  }
}

/** The file's text, decoded a read at a time; `first` holds the first read. `buf` is reused. */
async function* decoded(fh: fs.promises.FileHandle, buf: Buffer, first: number): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  for (let n = first; n > 0; n = (await fh.read(buf, 0, buf.length, null)).bytesRead)
    yield decoder.write(buf.subarray(0, n));
  yield decoder.end();
}

/** The chunks as they pass, with a copy kept in `into` while it stays under ENTRY_TEXT_MAX characters. */
async function* keeping(
  chunks: AsyncGenerator<string>,
  into: { chunks: string[]; length: number } | undefined,
): AsyncGenerator<string> {
  for await (const c of chunks) {
    if (into && (into.length += c.length) <= ENTRY_TEXT_MAX) into.chunks.push(c);
    yield c;
  }
}

export async function scanWorkspaceForSecrets(workspace: string): Promise<SecretScan> {
  const scan: SecretScan = { files: 0, hits: [], skipped: [] };
  const buf = Buffer.allocUnsafe(READ_BYTES);
  for await (const rel of workspaceFiles(workspace)) {
    const fh = await fs.promises.open(path.join(workspace, rel), 'r');
    try {
      const { bytesRead } = await fh.read(buf, 0, buf.length, null);
      const reason = dataReason(buf.subarray(0, bytesRead));
      if (reason) {
        scan.skipped.push({ file: rel, reason });
        continue;
      }
      scan.files++;
      const kept = ENTRY_FILE.test(rel) ? { chunks: [] as string[], length: 0 } : undefined;
      const hits: SecretHit[] = [];
      for await (const h of secretsInChunks(keeping(decoded(fh, buf, bytesRead), kept))) hits.push({ file: rel, ...h });
      // A title or id flagged on its own line adds nothing where the line is already reported.
      if (kept && kept.length <= ENTRY_TEXT_MAX) {
        const seen = new Set(hits.map((h) => h.line));
        for (const h of secretsInEntryNames(kept.chunks.join('')))
          if (!seen.has(h.line)) hits.push({ file: rel, ...h });
        hits.sort((a, b) => a.line - b.line);
      }
      scan.hits.push(...hits);
    } finally {
      await fh.close();
    }
  }
  return scan;
}
