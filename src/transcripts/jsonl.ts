/**
 * Generic JSONL transcripts, one message a line: `{role, content, timestamp, session_id}` (DESIGN §4).
 * `content` is a string or `{type:"text", text}` blocks; `timestamp` ISO or epoch seconds/ms (told
 * apart in time.ts); a line without one takes the caller's fallback; `session_id` defaults to the
 * file's name. Optional `tool_name` names the tool of a `tool` line; a tool line's text is truncated
 * like every reader's tool output (text.ts). Optional `cwd` (or `project`) names the folder the
 * session ran in; a line without one ran where the last line that named one did.
 */
import { malformed, type JsonlFormat, type LineResult } from './draft.js';
import { contentText, str, truncate, type Obj } from './text.js';
import type { Role } from './types.js';

const ROLES: readonly string[] = ['user', 'assistant', 'tool', 'system'] satisfies Role[];

export interface JsonlState {
  /** The last `cwd`/`project` a line named: lines without one ran there too. */
  cwd?: string;
}

export function createJsonlFormat(): JsonlFormat {
  const state: JsonlState = {};
  // The header (first line) is replayed on a resumed read: where a writer names the folder once.
  return { parse: (line) => parseJsonlLine(line, state), readsHeader: true };
}

export function parseJsonlLine(line: Obj, state: JsonlState = {}): LineResult {
  const named = str(line.cwd) ?? str(line.project);
  if (named) state.cwd = named;
  if (typeof line.role !== 'string' || !ROLES.includes(line.role)) {
    return malformed(`"role" must be one of ${ROLES.join(', ')}`);
  }
  const text = contentText(line.content);
  if (text === null) return malformed('"content" must be a string or an array of {type:"text", text} blocks');
  if (text.trim() === '') return { ok: true, turns: [] };
  const sessionId = str(line.session_id);
  const toolName = str(line.tool_name);
  return {
    ok: true,
    turns: [
      {
        role: line.role as Role,
        text: line.role === 'tool' ? truncate(text) : text,
        time: line.timestamp,
        ...(toolName && { toolName }),
        ...(state.cwd && { cwd: state.cwd }),
        ...(sessionId && { sessionId }),
      },
    ],
  };
}
