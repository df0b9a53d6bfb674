/**
 * What a format reader hands back for one parsed line: turns without the bookkeeping (index,
 * offsets, path, normalised time), which the stream adds. Readers stay pure functions of a parsed
 * object and a little per-file state, so each is unit-tested on single objects.
 */
import type { Role } from './types.js';

export interface TurnDraft {
  role: Role;
  text: string;
  /** The raw time from the line (ISO string, epoch s/ms, Date); normalised by the stream. */
  time?: unknown;
  toolName?: string;
  /** The folder the session ran in, as the line or the file's header recorded it. */
  cwd?: string;
  sidechain?: boolean;
  meta?: boolean;
  /** A session id carried by this turn's own line (generic JSONL); wins over the file's. */
  sessionId?: string;
}

export type LineResult =
  /** `sessionId`: the line names the file's session (a header, or Claude Code's per-line field). */
  { ok: true; turns: TurnDraft[]; sessionId?: string } | { ok: false; reason: string };

export const NO_TURNS: LineResult = { ok: true, turns: [] };

export function malformed(reason: string): LineResult {
  return { ok: false, reason };
}

/** A reader of one JSONL file. It may keep state (tool names by call id) across lines. */
export interface JsonlFormat {
  parse(line: Record<string, unknown>): LineResult;
  /**
   * Formats with a header line (Codex session_meta, OpenClaw session) read it even when a read
   * resumes past it, so a resumed read knows the same session id and start time as a full one.
   */
  readsHeader?: boolean;
  /**
   * Formats whose tool results name their tool only by call id re-read a bounded window before the
   * cursor (turns discarded), so a result read in the next run still finds its call's name — unless
   * the cursor carries the names of the calls still unanswered there (`tools`, then restored).
   */
  looksBehind?: boolean;
  /**
   * Formats that write a message twice (Codex: a response item and its event copy) replay the last
   * lines before the cursor even when the cursor carries the tool names, so a copy read after the
   * cursor still meets the original read before it, and the state those lines set (Codex
   * `turn_context.cwd`) holds.
   */
  pairsBehind?: boolean;
  tools?: ToolNames;
}

/** Most unanswered calls a cursor carries; a session with more falls back to the look-behind re-read. */
export const MAX_PENDING_TOOLS = 256;

/** Keeps tool names by call id for results that name only the id; bounded so a huge session cannot grow it forever. */
export class ToolNames {
  private readonly names = new Map<string, { name: string; answered: boolean }>();
  constructor(private readonly limit = 10_000) {}

  remember(id: unknown, name: string): void {
    if (typeof id !== 'string' || id === '') return;
    if (this.names.size >= this.limit) {
      const oldest = this.names.keys().next();
      if (!oldest.done) this.names.delete(oldest.value);
    }
    this.names.set(id, { name, answered: false });
  }

  /** The name of a call, looked up by its result (which marks the call answered). */
  get(id: unknown): string | undefined {
    const call = typeof id === 'string' ? this.names.get(id) : undefined;
    if (call) call.answered = true;
    return call?.name;
  }

  /** Calls without a result yet, newest last; null when more than `max` are open. */
  pending(max = MAX_PENDING_TOOLS): Record<string, string> | null {
    const open = [...this.names].filter(([, call]) => !call.answered);
    return open.length > max ? null : Object.fromEntries(open.map(([id, call]) => [id, call.name]));
  }
}
