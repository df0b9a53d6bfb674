/**
 * Claude Code project JSONL (`~/.claude/projects/<project>/<session>.jsonl`) → turns.
 *
 * Verified on the two real sessions in /work/shared/fixtures/real-transcripts/claude-code (Claude
 * Code 1.0.98): each line is `{type, sessionId, timestamp, cwd, isSidechain, uuid, parentUuid, message}`
 * (`cwd` is the folder the session was in at that line: it follows a `cd` into a subfolder);
 * `message.content` is a string or an array of `text`/`tool_use`/`tool_result` blocks (`thinking`
 * and `image` in other sessions), mostly one block per line; tool results come back as user lines
 * whose blocks are `tool_result` with `tool_use_id`; `isMeta` marks injected prompts (an expanded
 * slash command); `<command-name>` wrappers arrive as plain user strings; `summary` lines carry no
 * sessionId. Other line types (system, file-history-snapshot, ...) produce no turn and are not
 * malformed, so a newer Claude Code does not fill the warnings.
 *
 * Invariant: a tool result is never a user turn — text a tool returned is not something the user said.
 */
import { malformed, NO_TURNS, ToolNames, type JsonlFormat, type LineResult, type TurnDraft } from './draft.js';
import { compactJson, contentText, isObj, str, truncate, type Obj } from './text.js';

const WRAPPER =
  /^\s*(?:<(?:command-name|command-message|command-args|local-command-stdout|local-command-stderr|local-command-caveat|bash-input|bash-stdout|bash-stderr|user-prompt-submit-hook)>|\[Request interrupted by user)/;

export function isCommandWrapper(text: string): boolean {
  return WRAPPER.test(text);
}

export function createClaudeCodeFormat(): JsonlFormat {
  const tools = new ToolNames();
  return { parse: (line) => parseClaudeCodeLine(line, tools), looksBehind: true, tools };
}

export function parseClaudeCodeLine(line: Obj, tools: ToolNames = new ToolNames()): LineResult {
  if (typeof line.type !== 'string') return malformed('no "type" field');
  if (line.type !== 'user' && line.type !== 'assistant') return NO_TURNS;
  const message = line.message;
  if (!isObj(message)) return malformed(`${line.type} line without a "message" object`);
  const content = message.content;
  if (typeof content !== 'string' && !Array.isArray(content)) {
    return malformed('"message.content" is neither a string nor an array');
  }
  const base: Partial<TurnDraft> = { time: line.timestamp };
  if (line.isSidechain === true) base.sidechain = true;
  const cwd = str(line.cwd);
  if (cwd) base.cwd = cwd;
  const meta = line.isMeta === true || line.isCompactSummary === true || line.isApiErrorMessage === true;
  const turns = line.type === 'user' ? userTurns(content, meta, tools) : assistantTurns(content, meta, tools);
  const sessionId = str(line.sessionId);
  return { ok: true, turns: turns.map((t) => ({ ...base, ...t })), ...(sessionId && { sessionId }) };
}

function said(role: 'user' | 'assistant', text: string, meta: boolean): TurnDraft[] {
  if (text.trim() === '') return [];
  return meta || (role === 'user' && isCommandWrapper(text))
    ? [{ role: 'system', text, meta: true }]
    : [{ role, text }];
}

function userTurns(content: string | unknown[], meta: boolean, tools: ToolNames): TurnDraft[] {
  if (typeof content === 'string') return said('user', content, meta);
  const turns: TurnDraft[] = [];
  let texts: string[] = [];
  const flush = () => {
    turns.push(...said('user', texts.join('\n\n'), meta));
    texts = [];
  };
  for (const block of content) {
    if (!isObj(block)) continue;
    if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
    if (block.type === 'tool_result') {
      flush();
      const toolName = tools.get(block.tool_use_id);
      const text = truncate(contentText(block.content) ?? compactJson(block.content ?? ''));
      turns.push({ role: 'tool', text, ...(toolName && { toolName }) });
    }
  }
  flush();
  return turns;
}

function assistantTurns(content: string | unknown[], meta: boolean, tools: ToolNames): TurnDraft[] {
  if (typeof content === 'string') return said('assistant', content, meta);
  const turns: TurnDraft[] = [];
  let texts: string[] = [];
  const flush = () => {
    turns.push(...said('assistant', texts.join('\n\n'), meta));
    texts = [];
  };
  for (const block of content) {
    if (!isObj(block)) continue;
    if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
    if (block.type === 'tool_use') {
      flush();
      const toolName = str(block.name) ?? 'tool';
      tools.remember(block.id, toolName);
      turns.push({ role: 'tool', toolName, text: compactJson(block.input ?? {}) });
    }
    // thinking / redacted_thinking: the model's scratchpad, never a statement; dropped.
  }
  flush();
  return turns;
}
