/**
 * What a host's hook hands `mem context --hook <host>` on stdin, pure. Claude Code and Codex both send
 * one JSON object with `session_id`, `transcript_path`, `cwd` and `hook_event_name`, plus `source` for
 * SessionStart and `prompt` for UserPromptSubmit; every other field is theirs and ignored. Parsed here,
 * at the boundary, so the hook runner trusts its types: a field of the wrong type is refused by name,
 * never read as `[object Object]` into a query or a path.
 */
import { MemError } from '../core/errors.js';

/** Hosts whose hooks `--hook` reads. Both send the same common fields. */
export const HOOK_HOSTS = ['claude', 'codex'] as const;
export type HookHost = (typeof HOOK_HOSTS)[number];

/** Input over this many bytes is refused unread: a hook's JSON is small, and a runaway pipe must not fill memory. */
export const HOOK_INPUT_LIMIT = 1024 * 1024;

/** The events a pack answers; others print nothing. */
export const HOOK_EVENTS = ['SessionStart', 'UserPromptSubmit'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

export interface HookInput {
  event: string;
  sessionId?: string;
  transcriptPath?: string;
  /** The folder the session runs in: its name gives the pack's project scope. */
  cwd?: string;
  /** UserPromptSubmit: what the person typed. */
  prompt?: string;
  /** SessionStart: startup, resume, clear or compact. */
  source?: string;
}

/** A prompt longer than this is searched (and quoted in the pack's heading) by its head alone. */
export const PROMPT_QUERY_CHARS = 400;

/**
 * The search query a prompt gives: the prompt, or its first PROMPT_QUERY_CHARS characters cut at a
 * word. A pasted log or file as the prompt once made the pack's heading, which quotes the query, take
 * the whole 600-token budget, so no hit fitted and nothing was printed.
 */
export function promptQuery(prompt: string): string {
  const text = prompt.trim().replace(/\s+/g, ' ');
  const chars = Array.from(text);
  if (chars.length <= PROMPT_QUERY_CHARS) return text;
  const head = chars.slice(0, PROMPT_QUERY_CHARS).join('');
  const cut = head.replace(/\s+\S*$/, '');
  return `${cut.length >= PROMPT_QUERY_CHARS / 2 ? cut : head}…`;
}

export function isHookHost(value: string): value is HookHost {
  return (HOOK_HOSTS as readonly string[]).includes(value);
}

export function isHookEvent(value: string): value is HookEvent {
  return (HOOK_EVENTS as readonly string[]).includes(value);
}

const FIELDS = {
  session_id: 'sessionId',
  transcript_path: 'transcriptPath',
  cwd: 'cwd',
  prompt: 'prompt',
  source: 'source',
} as const;

export function parseHookInput(text: string): HookInput {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new MemError(
      'USAGE',
      text.trim() ? 'hook input on stdin is not JSON' : 'no hook input on stdin (the host sends one JSON object)',
    );
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json))
    throw new MemError('USAGE', 'hook input on stdin is not a JSON object');
  const o = json as Record<string, unknown>;
  const event = o.hook_event_name;
  if (typeof event !== 'string' || !event) throw new MemError('USAGE', 'hook input has no hook_event_name');
  const input: HookInput = { event };
  for (const [wire, name] of Object.entries(FIELDS)) {
    const v = o[wire];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string') throw new MemError('USAGE', `hook input field ${wire} is not a string`);
    input[name] = v;
  }
  return input;
}
