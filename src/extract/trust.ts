/**
 * The trust boundary before extraction (DESIGN §4, §9.5). Whole sessions of schedulers, sub-agents
 * and memfold's own jobs are skipped, heartbeat polls turn by turn; memory memfold injected into a
 * session (inside the context marker) is cut out so it is never extracted again; every text is
 * redacted before an extractor — rule-based or LLM — sees it.
 */
import type { Turn } from '../transcripts/types.js';
import { redactSecrets } from '../secrets/secrets.js';
import { redactPath } from '../secrets/secret-path.js';
import { tildePath } from '../core/home.js';
import { isHeartbeatTurn } from './heartbeat.js';
import { CONTEXT_CLOSE, CONTEXT_OPEN } from '../entries/context-markers.js';

/** Stated in every prompt memfold sends, so a session that logs memfold's own calls is recognised. */
export const JOB_MARKER = '[memfold-job]';

/** Tool output is only ever shown to the LLM as context; a bounded slice is enough for that. */
export const TOOL_TEXT_MAX = 2000;

/**
 * The first message of a session a scheduler wrote, by the templates schedulers write, not by its
 * first words: a bracketed tag (OpenClaw's isolated cron job opens with `[cron:<job id> <name>]`) or
 * a label and a colon (`Cron job "backup": ...`). "Cron job failed again last night" is a person
 * talking. Heartbeat polls are not judged here: OpenClaw runs them inside the main session, between
 * the person's messages, so each poll and its HEARTBEAT_OK are dropped alone (heartbeat.ts).
 */
const BOT_OPENERS = new RegExp(
  [
    String.raw`^\s*\[(?:cron|scheduled|scheduler)\b[^\]\n]*\]`,
    String.raw`^\s*(?:cron(?: job)?|scheduled (?:task|run|job))(?:\s+(?:"[^"\n]*"|'[^'\n]*'|\[[^\]\n]*\]))?\s*[:：]`,
  ].join('|'),
  'i',
);

/** An opening marker as `mem context` writes it: last on its line. One followed by words on its line is a mention. */
const PACK_OPEN = new RegExp(`${CONTEXT_OPEN}[ \\t]*(?=[\\r\\n]|$)`, 'i');
const PACK_CLOSE = new RegExp(CONTEXT_CLOSE, 'gi');
/** A closing marker alone on its line, as `mem context` writes one. */
const PACK_CLOSE_LINE = new RegExp(`^[ \\t]*${CONTEXT_CLOSE}[ \\t]*$`, 'gim');

/**
 * The text with memfold's injected packs cut out: from the first opening marker that ends its line to
 * the last closing one after it. Not to the first closing marker: a pack rendered before its text was
 * neutralised could hold one inside an entry ("the hook output ends with </memfold-context>"), and the
 * rest of that pack was learned again as the user's words. A pack left unclosed hides everything after
 * its opening marker: better to miss a statement than to re-learn memory. Markers match in any letter
 * case. One a person writes inside a sentence ("the prompt starts with a <memfold-context> block")
 * opens nothing: it hid the rest of the turn, and the decision stated after it was lost.
 */
export function stripInjectedContext(text: string): string {
  return replaceInjectedContext(text, () => ' ');
}

/**
 * The text with the pack stripInjectedContext cuts (by the same rule) replaced by `by(pack)`: `mem
 * import` keeps the pack's line breaks, so the lines after it keep their numbers in `source`.
 */
export function replaceInjectedContext(text: string, by: (pack: string) => string): string {
  const open = text.search(PACK_OPEN);
  if (open === -1) return text;
  const close = [...text.matchAll(PACK_CLOSE)].at(-1);
  const end = close && close.index > open ? close.index + close[0].length : text.length;
  return text.slice(0, open) + by(text.slice(open, end)) + text.slice(end);
}

/**
 * replaceInjectedContext for a whole file that may hold several packs with the person's own text
 * between them (`mem import` of a CLAUDE.md): each pack ends at the first closing marker alone on its
 * line after its opening one, and the text after it is searched again; a pack with no such line is
 * cut as replaceInjectedContext cuts one.
 */
export function replaceInjectedPacks(text: string, by: (pack: string) => string): string {
  let out = '';
  let rest = text;
  for (;;) {
    const open = rest.search(PACK_OPEN);
    if (open === -1) return out + rest;
    PACK_CLOSE_LINE.lastIndex = open;
    const close = PACK_CLOSE_LINE.exec(rest);
    if (!close) return out + replaceInjectedContext(rest, by);
    const end = close.index + close[0].length;
    out += rest.slice(0, open) + by(rest.slice(open, end));
    rest = rest.slice(end);
  }
}

/** Glob-ish pattern (`*` any run, `?` one char), case-insensitive, matched against the whole string. */
export function patternMatches(pattern: string, value: string): boolean {
  const re = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${re}$`, 'i').test(value);
}

/**
 * A session that logged memfold's own call: its first system or first user message is one of
 * memfold's prompts, which start with JOB_MARKER. Only there: the marker anywhere else (a tool that
 * tails memfold's log, a user quoting it) is text, and it skipped the whole session for good.
 */
function isJobPrompt(firstTurns: Turn[]): boolean {
  const opening = (role: Turn['role']) => firstTurns.find((t) => t.role === role);
  return [opening('system'), opening('user')].some((t) => t?.text.trimStart().startsWith(JOB_MARKER));
}

/** Why a session must produce nothing, judged from its path, id and first turns; undefined if it may. */
export function sessionSkipReason(
  sessionPath: string,
  sessionId: string,
  firstTurns: Turn[],
  patterns: string[],
): string | undefined {
  const hit = patterns.find((p) => patternMatches(p, sessionId) || patternMatches(p, sessionPath));
  if (hit) return `excluded by pattern "${hit}"`;
  const opener = firstTurns.find((t) => t.role === 'user' && !t.meta && !isHeartbeatTurn(t));
  if (opener && BOT_OPENERS.test(opener.text)) return 'scheduler or heartbeat session';
  if (isJobPrompt(firstTurns)) return "memfold's own job session";
  if (firstTurns.length && firstTurns.every((t) => t.sidechain)) return 'sub-agent session';
  return undefined;
}

export interface PreparedTurns {
  turns: Turn[];
  redacted: number;
}

/**
 * Redacted, marker-free copies; tool text bounded; heartbeat polls and their HEARTBEAT_OK left out
 * (their indexes stay unused). The originals are never passed on.
 */
export function prepareTurns(turns: Turn[]): PreparedTurns {
  let redacted = 0;
  const out = turns
    .filter((t) => !isHeartbeatTurn(t))
    .map((t) => {
      // Redact before cutting: a cut could leave half a key too short to be recognised.
      const r = redactSecrets(stripInjectedContext(t.text));
      redacted += r.count;
      const text = t.role === 'tool' && r.text.length > TOOL_TEXT_MAX ? r.text.slice(0, TOOL_TEXT_MAX) + ' …' : r.text;
      return { ...t, text };
    });
  return { turns: out, redacted };
}

/**
 * A transcript's path as memory stores it (`session_path`, a wrap-up's skipped sessions): with `~`
 * for the home folder, and through the secret gate, since a file or folder name can hold a token.
 */
export function storedSessionPath(file: string): string {
  return redactPath(tildePath(file));
}
