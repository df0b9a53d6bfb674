/**
 * The session id a transcript's turns carry: the file's until a line or header names one, and always
 * through the secret gate. A session id is written into memory (`session_id`, wrap-up citations) and
 * sent to an LLM (the wrap-up prompt), and an id taken from a file name or a header can hold a token.
 */
import { basename, extname } from 'node:path';
import { redactSecrets } from '../secrets/secrets.js';
import type { SourceKind } from './types.js';

const CODEX_FILE_UUID = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;

/** The file's session id until a line names one: the name without extension (Codex: its UUID). */
export function defaultSessionId(path: string, kind: SourceKind): string {
  if (kind === 'codex') {
    const m = CODEX_FILE_UUID.exec(path);
    if (m?.[1]) return m[1];
  }
  return basename(path, extname(path));
}

/** The last session id redacted, and its redaction: a file's turns share one id. */
let lastId: [string, string] = ['', ''];

/** The id as memory may hold it (redacted). */
export function safeSessionId(id: string): string {
  if (lastId[0] !== id) lastId = [id, redactSecrets(id).text];
  return lastId[1];
}
