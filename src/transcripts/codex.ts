/**
 * Codex CLI rollout JSONL (`~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl`) → turns.
 *
 * Verified in openai/codex: `RolloutLine {timestamp, #[serde(flatten)] item: RolloutItem}` with
 * `RolloutItem` tagged `type` + `payload`: session_meta | response_item | compacted | turn_context |
 * event_msg (codex-rs/protocol/src/protocol.rs); `ResponseItem` variants message {role, content:
 * [input_text|output_text|input_image]}, reasoning, local_shell_call {call_id, action:{command}},
 * function_call {name, arguments: JSON string, call_id}, function_call_output {call_id, output:
 * string | content items}, custom_tool_call {name, input, call_id}, custom_tool_call_output,
 * web_search_call (codex-rs/protocol/src/models.rs); the recorder persists every response item and
 * also event_msg user_message {message, images?, kind?} / agent_message {message} copies of the same
 * text (codex-rs/core/src/rollout/policy.rs), while Codex Desktop rollouts may hold only the events:
 * a message makes one turn from whichever copy comes first (codex-echo.ts). `session_meta.cwd`, then
 * each `turn_context.cwd`, is the folder the turns after it ran in. The older recorder
 * (codex-rs/core/src/rollout.rs, mid-2025) wrote a first line `{id, timestamp, instructions}`, then
 * bare response items and `{record_type:"state"}` lines; those items have no time of their own and
 * take the header's.
 * Injected user messages (codex-rs/protocol/src/instruction_markers.rs; an event's `kind`
 * environment_context or user_instructions) and developer messages are role system + meta.
 */
import { EchoPairs, type Copy, type Speaker } from './codex-echo.js';
import { malformed, NO_TURNS, ToolNames, type JsonlFormat, type LineResult, type TurnDraft } from './draft.js';
import { compactJson, contentText, isObj, str, truncate, type Obj } from './text.js';

const INJECTED =
  /^\s*(?:<environment_context>|<user_instructions>|<collaboration_mode>|<skill\b|<user_shell_command>|<turn_aborted>|# AGENTS\.md instructions for )/;
const TEXT_BLOCKS = ['input_text', 'output_text', 'text'] as const;

export interface CodexState {
  tools: ToolNames;
  /** Session start from the header: the time of old-shape items, which carry none. */
  startedAt?: unknown;
  /** The folder the session runs in: session_meta's, then the latest turn_context's. */
  cwd?: string;
  /** Messages made turns from one copy, waiting for the other (created on first use). */
  echoes?: EchoPairs;
}

export function createCodexFormat(): JsonlFormat {
  const state: CodexState = { tools: new ToolNames(), echoes: new EchoPairs() };
  return {
    parse: (line) => parseCodexLine(line, state),
    readsHeader: true,
    looksBehind: true,
    pairsBehind: true,
    tools: state.tools,
  };
}

export function parseCodexLine(line: Obj, state: CodexState = { tools: new ToolNames() }): LineResult {
  if (typeof line.type === 'string' && 'payload' in line) {
    const payload = line.payload;
    if (!isObj(payload)) return malformed(`"payload" of a ${line.type} line is not an object`);
    if (line.type === 'session_meta') {
      state.startedAt = payload.timestamp ?? line.timestamp;
      state.cwd = str(payload.cwd) ?? state.cwd;
      const sessionId = str(payload.id);
      return { ok: true, turns: [], ...(sessionId && { sessionId }) };
    }
    if (line.type === 'response_item') return withCwd(itemTurns(payload, line.timestamp, state), state);
    if (line.type === 'event_msg') return withCwd(eventTurns(payload, line.timestamp, state), state);
    if (line.type === 'turn_context') state.cwd = str(payload.cwd) ?? state.cwd;
    return NO_TURNS; // turn_context, compacted: no speaker
  }
  if (typeof line.record_type === 'string') return NO_TURNS;
  if (typeof line.type === 'string') return withCwd(itemTurns(line, state.startedAt, state), state);
  if (typeof line.id === 'string' && 'timestamp' in line) {
    state.startedAt = line.timestamp;
    return { ok: true, turns: [], sessionId: line.id };
  }
  return malformed('neither a rollout line {timestamp, type, payload} nor a response item');
}

function itemTurns(item: Obj, time: unknown, state: CodexState): LineResult {
  const turns = (drafts: TurnDraft[]): LineResult => ({ ok: true, turns: drafts.map((d) => ({ ...d, time })) });
  const tool = (toolName: string | undefined, text: string): LineResult =>
    turns([{ role: 'tool', text, ...(toolName && { toolName }) }]);
  switch (item.type) {
    case 'message': {
      const text = contentText(item.content, TEXT_BLOCKS);
      if (text === null || typeof item.role !== 'string') return malformed('message without "role" or "content"');
      if (text.trim() === '') return NO_TURNS;
      if (item.role !== 'user' && item.role !== 'assistant') return turns([{ role: 'system', text, meta: true }]);
      const said = saidOnce(state, item.role, 'item', text, INJECTED.test(text));
      return said ? turns([said]) : NO_TURNS;
    }
    case 'function_call':
    case 'custom_tool_call': {
      const name = str(item.name) ?? 'tool';
      state.tools.remember(item.call_id, name);
      return tool(
        name,
        item.type === 'function_call' ? compactJson(item.arguments) : truncate(String(item.input ?? '')),
      );
    }
    case 'local_shell_call': {
      state.tools.remember(item.call_id, 'local_shell');
      const command = isObj(item.action) ? item.action.command : undefined;
      return tool('local_shell', Array.isArray(command) ? truncate(command.join(' ')) : compactJson(item.action ?? {}));
    }
    case 'function_call_output':
    case 'custom_tool_call_output':
      return tool(state.tools.get(item.call_id), truncate(outputText(item.output)));
    case 'web_search_call': {
      const query = isObj(item.action) ? str(item.action.query) : undefined;
      return tool('web_search', query ?? compactJson(item.action ?? {}));
    }
    default:
      return NO_TURNS; // reasoning (dropped on purpose), ghost_snapshot, compaction, future items
  }
}

/** event_msg: a user's or the agent's words, when no response item carried them already. */
function eventTurns(payload: Obj, time: unknown, state: CodexState): LineResult {
  const speaker: Speaker | undefined =
    payload.type === 'user_message' ? 'user' : payload.type === 'agent_message' ? 'assistant' : undefined;
  if (!speaker) return NO_TURNS; // token_count, agent_reasoning, exec and patch events: no one's words
  const text = typeof payload.message === 'string' ? payload.message : '';
  if (text.trim() === '') return NO_TURNS;
  const injected =
    speaker === 'user' &&
    (payload.kind === 'environment_context' || payload.kind === 'user_instructions' || INJECTED.test(text));
  const said = saidOnce(state, speaker, 'event', text, injected);
  return { ok: true, turns: said ? [{ ...said, time }] : [] };
}

/** The turn for words read from one copy, or null when the other copy already made it. */
function saidOnce(state: CodexState, speaker: Speaker, copy: Copy, text: string, injected: boolean): TurnDraft | null {
  state.echoes ??= new EchoPairs();
  if (state.echoes.repeats(speaker, copy, text)) return null;
  return injected ? { role: 'system', text, meta: true } : { role: speaker, text };
}

function withCwd(result: LineResult, state: CodexState): LineResult {
  const cwd = state.cwd;
  return result.ok && cwd && result.turns.length
    ? { ...result, turns: result.turns.map((t) => ({ ...t, cwd })) }
    : result;
}

/** Tool output: a string (older Codex: a JSON string `{output, metadata}`), content items, or `{content}`. */
function outputText(output: unknown): string {
  if (typeof output === 'string') {
    if (output.startsWith('{"output":')) {
      try {
        const inner: unknown = JSON.parse(output);
        if (isObj(inner) && typeof inner.output === 'string') return inner.output;
      } catch {
        // not the legacy wrapper after all: keep the string as it is
      }
    }
    return output;
  }
  if (Array.isArray(output)) return contentText(output, TEXT_BLOCKS) ?? '';
  if (isObj(output) && typeof output.content === 'string') return output.content;
  return compactJson(output ?? '');
}
