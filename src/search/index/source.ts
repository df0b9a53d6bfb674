/**
 * Reading one Markdown file for the index, defensively: a binary file (NUL bytes), a file over the
 * size limit, or an unreadable one is skipped with a one-line reason; invalid UTF-8 is decoded with
 * replacement characters and indexed with a warning. Nothing here throws for bad content.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { looksBinary } from '../../core/binary.js';

/** Files above this are not indexed (a 50 MB log pasted into memory/ would swamp the index). */
export const MAX_FILE_BYTES = 8 * 1024 * 1024;

export interface SourceText {
  hash: string;
  text: string | null;
  /** Why the file was skipped or what was wrong with it. */
  warning?: string;
}

type Crypto = typeof import('node:crypto');
let crypto: Crypto | undefined;

/** node:crypto is loaded on first use: a query whose files are all unchanged never hashes (~5 ms saved). */
export function hashBytes(buf: Uint8Array): string {
  crypto ??= createRequire(import.meta.url)('node:crypto') as Crypto;
  return crypto.createHash('sha256').update(buf).digest('hex').slice(0, 32);
}

export function readSource(abs: string, key: string): SourceText {
  let buf: Buffer;
  try {
    const size = fs.statSync(abs).size;
    if (size > MAX_FILE_BYTES) {
      return {
        hash: `size:${size}`,
        text: null,
        warning: `${key}: ${(size / 1048576).toFixed(1)} MB is over the ${MAX_FILE_BYTES / 1048576} MB limit; not indexed`,
      };
    }
    buf = fs.readFileSync(abs);
  } catch (err) {
    return { hash: 'unreadable', text: null, warning: `${key}: cannot read (${(err as Error).message}); not indexed` };
  }
  const hash = hashBytes(buf);
  if (looksBinary(buf)) return { hash, text: null, warning: `${key}: looks binary (NUL bytes); not indexed` };
  try {
    return { hash, text: new TextDecoder('utf-8', { fatal: true }).decode(buf) };
  } catch {
    return {
      hash,
      text: new TextDecoder('utf-8').decode(buf),
      warning: `${key}: invalid UTF-8, bad bytes shown as U+FFFD`,
    };
  }
}
