/**
 * OpenClaw session JSONL (`~/.openclaw/agents/<agent>/sessions/<sessionId>.jsonl`) → turns.
 *
 * Verified in openclaw/openclaw docs/reference/session-management-compaction.md ("Transcript
 * structure"): transcripts are written by the pi-coding-agent `SessionManager`; the first line is a
 * header `{type:"session", id, timestamp, cwd, version?, parentSession?}`, then entries with `id` +
 * `parentId` (a tree): `message` (user/assistant/toolResult), `custom_message`, `custom`,
 * `compaction`, `branch_summary`, plus `model_change` and `thinking_level_change`. Message shapes
 * from badlogic/pi-mono packages/ai/src/types.ts and packages/coding-agent/docs/session.md: user
 * `content` is a string or `text`/`image` blocks; assistant blocks are `text`, `thinking`
 * and `toolCall {id, name, arguments}`; `toolResult {toolCallId, toolName, content, isError}`;
 * `bashExecution {command, output}` for commands the user ran; `message.timestamp` is epoch ms
 * while the entry's `timestamp` is ISO. Only `message` entries make turns: the others are settings,
 * extension state or summaries (a compaction summary is the model's digest, not anyone's words).
 */
import { malformed, NO_TURNS, type JsonlFormat, type LineResult, type TurnDraft } from './draft.js';
import { compactJson, contentText, isObj, str, truncate, type Obj } from './text.js';

export interface OpenClawState {
  /** The header's `cwd`: the folder every turn of the session ran in. */
  cwd?: string;
}

export function createOpenClawFormat(): JsonlFormat {
  const state: OpenClawState = {};
  return { parse: (line) => parseOpenClawLine(line, state), readsHeader: true };
}

export function parseOpenClawLine(line: Obj, state: OpenClawState = {}): LineResult {
  if (typeof line.type !== 'string') return malformed('no "type" field');
  if (line.type === 'session') {
    const sessionId = str(line.id);
    state.cwd = str(line.cwd);
    return { ok: true, turns: [], ...(sessionId && { sessionId }) };
  }
  if (line.type !== 'message') return NO_TURNS;
  const message = line.message;
  if (!isObj(message) || typeof message.role !== 'string') return malformed('message entry without "message.role"');
  const time = line.timestamp ?? message.timestamp;
  const drafts = messageTurns(message);
  if (drafts === null) return malformed(`${message.role} message with unreadable "content"`);
  const cwd = state.cwd;
  return { ok: true, turns: drafts.map((d) => ({ ...d, time, ...(cwd && { cwd }) })) };
}

function messageTurns(message: Obj): TurnDraft[] | null {
  switch (message.role) {
    case 'user': {
      const text = contentText(message.content);
      if (text === null) return null;
      return text.trim() === '' ? [] : [{ role: 'user', text }];
    }
    case 'assistant':
      return assistantTurns(message.content);
    case 'toolResult': {
      const text = contentText(message.content);
      if (text === null) return null;
      const toolName = str(message.toolName);
      return [{ role: 'tool', text: truncate(text), ...(toolName && { toolName }) }];
    }
    case 'bashExecution':
      return [
        {
          role: 'tool',
          toolName: 'bash',
          text: truncate(`$ ${String(message.command ?? '')}\n${String(message.output ?? '')}`),
        },
      ];
    default:
      return []; // custom / summary roles: not a speaker's words
  }
}

function assistantTurns(content: unknown): TurnDraft[] | null {
  if (typeof content === 'string') return content.trim() === '' ? [] : [{ role: 'assistant', text: content }];
  if (!Array.isArray(content)) return null;
  const turns: TurnDraft[] = [];
  let texts: string[] = [];
  const flush = () => {
    const text = texts.join('\n\n');
    if (text.trim() !== '') turns.push({ role: 'assistant', text });
    texts = [];
  };
  for (const block of content) {
    if (!isObj(block)) continue;
    if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
    if (block.type === 'toolCall') {
      flush();
      turns.push({ role: 'tool', toolName: str(block.name) ?? 'tool', text: compactJson(block.arguments ?? {}) });
    }
  }
  flush();
  return turns;
}
