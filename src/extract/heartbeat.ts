/**
 * Heartbeat polls and their acknowledgements, turn by turn. OpenClaw runs its heartbeat inside the
 * main session: every 30 minutes a user message holding the heartbeat prompt ("Read HEARTBEAT.md if
 * it exists (workspace context). … If nothing needs attention, reply HEARTBEAT_OK."), often after
 * queued `System: [time] …` event lines, and the agent answers `HEARTBEAT_OK`. The person's own
 * messages sit between them in the same file, so a poll is dropped alone, never its session: the
 * session is judged by the first message that is not one (trust.ts).
 */
import type { Turn } from '../transcripts/types.js';

/** Queued system events OpenClaw puts before the prompt, one a line: `System: [2026-04-15 22:06:46 GMT+8] Exec failed …`. */
const SYSTEM_EVENTS = /^(?:[ \t]*(?:System:[^\n]*)?\r?\n)*/;

/**
 * A poll, by how schedulers write one: OpenClaw's prompt, a bracketed tag (`[heartbeat]`), a label
 * and a colon (`Heartbeat: check the inbox`), the bare token, or a custom prompt that keeps "if
 * nothing …, reply HEARTBEAT_OK" anywhere. A person asking the agent to stop replying HEARTBEAT_OK
 * is not a poll.
 */
const POLL = new RegExp(
  [
    String.raw`^\s*Read HEARTBEAT\.md\b`,
    String.raw`^\s*\[heartbeat\b[^\]\n]*\]`,
    String.raw`^\s*heartbeat(?:\s+(?:"[^"\n]*"|'[^'\n]*'|\[[^\]\n]*\]))?\s*[:：]`,
    String.raw`^\s*HEARTBEAT_OK\b`,
    String.raw`\bif nothing\b[^.\n]{0,80}\breply(?: with)?\s+[*_\x60"']*HEARTBEAT_OK\b`,
  ].join('|'),
  'i',
);

/** The token, bare or in Markdown or HTML emphasis, that ends or opens an acknowledgement. */
const TOKEN =
  /^(?:\*\*|__|<b>|<strong>)?HEARTBEAT_OK(?:\*\*|__|<\/b>|<\/strong>)?[\s.!。]*|[\s.!。]*(?:\*\*|__|<b>|<strong>)?HEARTBEAT_OK(?:\*\*|__|<\/b>|<\/strong>)?[\s.!。]*$/g;
/** What OpenClaw itself still treats as an acknowledgement beside the token (its `ackMaxChars`). */
const ACK_MAX_CHARS = 300;

export function isHeartbeatPoll(text: string): boolean {
  return POLL.test(text.replace(SYSTEM_EVENTS, ''));
}

/** The agent's "nothing needs attention": the token first or last, and at most a short note beside it. */
export function isHeartbeatAck(text: string): boolean {
  const trimmed = text.trim();
  if (!/HEARTBEAT_OK/.test(trimmed)) return false;
  const rest = trimmed.replace(TOKEN, '').trim();
  return rest !== trimmed && rest.length <= ACK_MAX_CHARS;
}

/** A turn that is a heartbeat poll (a user turn) or its acknowledgement (an assistant turn). */
export function isHeartbeatTurn(turn: Turn): boolean {
  if (turn.meta || turn.sidechain) return false;
  if (turn.role === 'user') return isHeartbeatPoll(turn.text);
  if (turn.role === 'assistant') return isHeartbeatAck(turn.text);
  return false;
}
