/**
 * One stream of turns for every transcript format (DESIGN §4). Readers never decide what is memory;
 * they only say who spoke, when, and where in the file, so cursors can resume exactly.
 */

export const SOURCE_KINDS = ['openclaw', 'claude-code', 'codex', 'jsonl', 'markdown'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

export type Role = 'user' | 'assistant' | 'tool' | 'system';

export interface Turn {
  sessionId: string;
  /** Absolute path of the transcript file as it was read. */
  sessionPath: string;
  /** 1-based position among this file's turns; `message_range` counts these. */
  index: number;
  role: Role;
  text: string;
  /** ISO 8601 in UTC; null when the line had none and no fallback was given. */
  timestamp: string | null;
  toolName?: string;
  /** Folder the session ran in, where the format records it (Claude Code `cwd`, Codex `session_meta.cwd`, generic JSONL `cwd`/`project`). */
  cwd?: string;
  /** A sub-agent's turn (Claude Code `isSidechain`, spawned sessions): never a source of memory. */
  sidechain?: boolean;
  /** Text the harness injected (Claude Code `isMeta`, command wrappers): shown as role `system`. */
  meta?: boolean;
  /** Byte offset just past the line (or block) this turn came from: where a cursor may resume. */
  endOffset: number;
}

export interface ReadOptions {
  /** Byte offset to start at (a cursor). Must be a line start. Default 0. */
  fromOffset?: number;
  /**
   * Byte offset to stop at (a cursor): only lines, or Markdown turns, ending at or before it are read,
   * as if the file ended there. Default: the file's end.
   */
  toOffset?: number;
  /** Turns already counted before fromOffset, so indexes continue. Default 0. */
  fromIndex?: number;
  /** Lines longer than this are skipped with a warning. Default 4 MiB. */
  maxLineBytes?: number;
  /** ISO time for lines without a timestamp (the file's mtime); a warning is counted once. */
  fallbackTimestamp?: string;
  /** IANA zone of times written without an offset (the configured `timezone`). Default UTC. */
  zone?: string;
  /**
   * The writer may still be appending (the file changed moments ago). A Markdown transcript's last
   * turn, which no later heading closes yet, is then held back, as an unterminated JSONL line always is.
   */
  growing?: boolean;
  /**
   * Names of the tool calls still unanswered at fromOffset, by call id (a cursor's `pendingTools`).
   * Given, a resumed read of a format whose results name only the call id reads no byte before
   * fromOffset; missing, it re-reads a bounded window before it to learn them.
   */
  toolNames?: Record<string, string>;
}

export interface ReadStats {
  sessionId: string;
  /** Lines that were not valid for the format: counted and skipped, never fatal. */
  malformed: number;
  /** Lines over maxLineBytes. */
  skippedLong: number;
  /** Lines that took the fallback timestamp. */
  untimed: number;
  bytesRead: number;
  /** Byte offset after the last complete line (or Markdown turn) read: a partial one is left for next time. */
  endOffset: number;
  /** Formats whose results name only a call id: the calls unanswered at endOffset, for the next cursor (absent: too many to carry). */
  pendingTools?: Record<string, string>;
  warnings: string[];
}

export interface TranscriptStream {
  turns: AsyncIterable<Turn>;
  /** Filled while `turns` is iterated; final once iteration ends. */
  stats: ReadStats;
}
