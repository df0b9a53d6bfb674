/**
 * Each format reader as a pure function of one parsed line (plus its per-file state): the shapes
 * verified from the real tools, and the shapes that must produce no turn or count as malformed.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseClaudeCodeLine } from '../src/transcripts/claude-code.js';
import { parseCodexLine, type CodexState } from '../src/transcripts/codex.js';
import { ToolNames, type LineResult } from '../src/transcripts/draft.js';
import { parseJsonlLine } from '../src/transcripts/jsonl.js';
import { parseMarkdownTranscript } from '../src/transcripts/markdown.js';
import { parseOpenClawLine } from '../src/transcripts/openclaw.js';

const turns = (r: LineResult) => (r.ok ? r.turns.map(({ time: _t, ...rest }) => rest) : r.reason);
const cc = (type: string, content: unknown, extra: object = {}) => ({
  type,
  sessionId: 's',
  timestamp: '2026-11-20T10:00:00Z',
  message: { role: type, content },
  ...extra,
});

test('claude-code: tool_use and tool_result pair by id; thinking dropped; text and tools split in order', () => {
  const tools = new ToolNames();
  const call = parseClaudeCodeLine(
    cc('assistant', [
      { type: 'thinking', thinking: 'hmm' },
      { type: 'text', text: 'Looking.' },
      { type: 'tool_use', id: 'tu1', name: 'Grep', input: { pattern: 'x' } },
      { type: 'text', text: 'Done.' },
    ]),
    tools,
  );
  assert.deepEqual(turns(call), [
    { role: 'assistant', text: 'Looking.' },
    { role: 'tool', toolName: 'Grep', text: '{"pattern":"x"}' },
    { role: 'assistant', text: 'Done.' },
  ]);
  assert.deepEqual(call.ok && call.sessionId, 's');
  const result = parseClaudeCodeLine(
    cc('user', [{ type: 'tool_result', tool_use_id: 'tu1', content: [{ type: 'text', text: 'a.ts:1' }] }]),
    tools,
  );
  assert.deepEqual(turns(result), [{ role: 'tool', toolName: 'Grep', text: 'a.ts:1' }]);
  const unknown = parseClaudeCodeLine(cc('user', [{ type: 'tool_result', tool_use_id: 'gone', content: 'x' }]), tools);
  assert.deepEqual(turns(unknown), [{ role: 'tool', text: 'x' }]);
});

test('claude-code: meta, command wrappers, sidechain; other line types are not malformed', () => {
  assert.deepEqual(turns(parseClaudeCodeLine(cc('user', 'expanded prompt', { isMeta: true }))), [
    { role: 'system', text: 'expanded prompt', meta: true },
  ]);
  assert.deepEqual(turns(parseClaudeCodeLine(cc('user', '<command-name>/init</command-name>'))), [
    { role: 'system', text: '<command-name>/init</command-name>', meta: true },
  ]);
  assert.deepEqual(turns(parseClaudeCodeLine(cc('user', '[Request interrupted by user]'))), [
    { role: 'system', text: '[Request interrupted by user]', meta: true },
  ]);
  assert.deepEqual(turns(parseClaudeCodeLine(cc('user', 'hi', { isSidechain: true }))), [
    { role: 'user', text: 'hi', sidechain: true },
  ]);
  for (const type of ['summary', 'system', 'file-history-snapshot', 'queue-operation']) {
    assert.deepEqual(turns(parseClaudeCodeLine({ type })), [], type);
  }
  assert.equal(turns(parseClaudeCodeLine({ message: {} })), 'no "type" field');
  assert.match(String(turns(parseClaudeCodeLine({ type: 'user' }))), /without a "message"/);
  assert.match(String(turns(parseClaudeCodeLine(cc('user', 7)))), /neither a string nor an array/);
});

test('codex: session_meta names the session; an event copy of an item, turn_context, reasoning make no turns', () => {
  const state: CodexState = { tools: new ToolNames() };
  const meta = parseCodexLine(
    { timestamp: 't', type: 'session_meta', payload: { id: 'abc', timestamp: '2026-11-20T10:00:00Z' } },
    state,
  );
  assert.deepEqual(meta.ok && meta.sessionId, 'abc');
  const item = (payload: object) =>
    parseCodexLine({ timestamp: '2026-11-20T10:00:01Z', type: 'response_item', payload }, state);
  assert.deepEqual(turns(item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'dup' }] })), [
    { role: 'user', text: 'dup' },
  ]);
  for (const type of ['event_msg', 'turn_context', 'compacted']) {
    assert.deepEqual(
      turns(parseCodexLine({ timestamp: 't', type, payload: { type: 'user_message', message: 'dup' } }, state)),
      [],
      type,
    );
  }
  assert.deepEqual(turns(item({ type: 'reasoning', summary: [], encrypted_content: 'x' })), []);
  assert.deepEqual(
    turns(
      item({
        type: 'message',
        role: 'developer',
        content: [{ type: 'input_text', text: '<permissions instructions>' }],
      }),
    ),
    [{ role: 'system', text: '<permissions instructions>', meta: true }],
  );
  assert.deepEqual(
    turns(
      item({
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: '# AGENTS.md instructions for /repo' }],
      }),
    ),
    [{ role: 'system', text: '# AGENTS.md instructions for /repo', meta: true }],
  );
  assert.deepEqual(
    turns(item({ type: 'function_call', name: 'shell', arguments: '{"command": ["ls"]}', call_id: 'c1' })),
    [{ role: 'tool', toolName: 'shell', text: '{"command":["ls"]}' }],
  );
  assert.deepEqual(
    turns(item({ type: 'function_call_output', call_id: 'c1', output: { content: 'boom', success: false } })),
    [{ role: 'tool', toolName: 'shell', text: 'boom' }],
  );
  assert.deepEqual(
    turns(
      item({ type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'pg listen notify' } }),
    ),
    [{ role: 'tool', toolName: 'web_search', text: 'pg listen notify' }],
  );
  assert.match(String(turns(item({ type: 'message', content: [] }))), /without "role"/);
  assert.match(String(turns(parseCodexLine({ foo: 1 }, state))), /neither a rollout line/);
});

test('codex older shape: the header names the session and dates the bare items after it', () => {
  const state: CodexState = { tools: new ToolNames() };
  const header = parseCodexLine({ id: 'old-1', timestamp: '2025-06-01T08:00:00.000Z', instructions: null }, state);
  assert.deepEqual(header.ok && header.sessionId, 'old-1');
  const msg = parseCodexLine(
    { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'hi' }] },
    state,
  );
  assert.deepEqual(msg.ok && msg.turns, [{ role: 'assistant', text: 'hi', time: '2025-06-01T08:00:00.000Z' }]);
  assert.deepEqual(turns(parseCodexLine({ record_type: 'state', previous_response_id: 'r1' }, state)), []);
});

test('openclaw: only message entries make turns; toolResult carries its toolName', () => {
  const session = parseOpenClawLine({ type: 'session', version: 3, id: 'oc1', timestamp: 't', cwd: '/' });
  assert.deepEqual(session.ok && session.sessionId, 'oc1');
  for (const type of [
    'model_change',
    'thinking_level_change',
    'custom',
    'custom_message',
    'compaction',
    'branch_summary',
    'label',
  ]) {
    assert.deepEqual(
      turns(parseOpenClawLine({ type, id: 'x', parentId: null, timestamp: 't', summary: 'remember this' })),
      [],
      type,
    );
  }
  const msg = (message: object) =>
    parseOpenClawLine({ type: 'message', id: 'm', parentId: null, timestamp: '2026-11-21T08:00:00Z', message });
  assert.deepEqual(turns(msg({ role: 'user', content: 'plain string', timestamp: 1 })), [
    { role: 'user', text: 'plain string' },
  ]);
  assert.deepEqual(
    turns(
      msg({
        role: 'toolResult',
        toolCallId: 'c',
        toolName: 'read',
        content: [
          { type: 'text', text: 'ok' },
          { type: 'image', data: '', mimeType: 'image/png' },
        ],
        isError: false,
      }),
    ),
    [{ role: 'tool', toolName: 'read', text: 'ok' }],
  );
  const fallbackTime = parseOpenClawLine({
    type: 'message',
    message: { role: 'user', content: 'x', timestamp: 1795168800000 },
  });
  assert.deepEqual(
    fallbackTime.ok && fallbackTime.turns[0]?.time,
    1795168800000,
    'no entry timestamp: the message epoch ms',
  );
  assert.match(String(turns(msg({ content: [] }))), /without "message.role"/);
  assert.match(String(turns(msg({ role: 'user', content: 5 }))), /unreadable "content"/);
});

test('generic jsonl: roles, content shapes, session_id and tool_name', () => {
  assert.deepEqual(
    turns(
      parseJsonlLine({
        role: 'tool',
        tool_name: 'grep',
        content: [{ type: 'text', text: 'a' }, { type: 'image' }, { type: 'text', text: 'b' }],
        session_id: 'x',
      }),
    ),
    [{ role: 'tool', text: 'a\n\nb', toolName: 'grep', sessionId: 'x' }],
  );
  assert.deepEqual(turns(parseJsonlLine({ role: 'user', content: '   ' })), []);
  assert.match(String(turns(parseJsonlLine({ role: 'bot', content: 'x' }))), /"role" must be one of/);
  assert.match(String(turns(parseJsonlLine({ role: 'user', content: { text: 'x' } }))), /"content" must be/);
});

test('markdown: fences of either kind hide headings; bad front matter is reported, not thrown', () => {
  const md =
    '---\nsession_id: 42\n---\n## user\nhi\n~~~\n## assistant\n~~~\n````\n```\n## tool\n````\n\n## Tool · 2026-11-21T15:00:00+01:00\nout\n\n\n';
  const parsed = parseMarkdownTranscript(md);
  assert.equal(parsed.sessionId, '42');
  assert.deepEqual(
    parsed.turns.map((t) => [t.role, t.text, t.time]),
    [
      ['user', 'hi\n~~~\n## assistant\n~~~\n````\n```\n## tool\n````', undefined],
      ['tool', 'out', '2026-11-21T15:00:00+01:00'],
    ],
  );
  assert.equal(parsed.turns[1]?.end, Buffer.byteLength(md) - 2, 'ends after the last non-blank line');
  assert.match(
    parseMarkdownTranscript('---\nsession_id: [unclosed\n---\n## user\nx\n').problem ?? '',
    /front matter is not valid YAML/,
  );
  assert.deepEqual(parseMarkdownTranscript('# Title\n\n## users\n## user notes\n').turns, []);
});

test('every reader redacts tool text before cutting it at 2,000 characters: a token across the cut leaves no piece', () => {
  const token = 'ghp_CuTt0k3nZq8RmT4vXw2YbN6cLp0sKd3FhJ7g';
  /** Tool text whose token has `k` characters before the cut. */
  const output = (k: number) =>
    `${'x'.repeat(2000 - 'GITHUB_TOKEN='.length - k - 1)}\nGITHUB_TOKEN=${token}\n${'y'.repeat(1500)}`;
  const readers: Record<string, (text: string) => LineResult> = {
    'claude-code tool_result': (text) =>
      parseClaudeCodeLine(cc('user', [{ type: 'tool_result', tool_use_id: 't', content: text }])),
    'claude-code tool_use': (text) =>
      parseClaudeCodeLine(cc('assistant', [{ type: 'tool_use', id: 't', name: 'Bash', input: { command: text } }])),
    'codex function_call_output': (text) =>
      parseCodexLine({
        timestamp: 't',
        type: 'response_item',
        payload: { type: 'function_call_output', call_id: 'c', output: text },
      }),
    'codex custom_tool_call': (text) =>
      parseCodexLine({
        timestamp: 't',
        type: 'response_item',
        payload: { type: 'custom_tool_call', name: 'apply_patch', input: text, call_id: 'c' },
      }),
    'codex local_shell_call': (text) =>
      parseCodexLine({
        timestamp: 't',
        type: 'response_item',
        payload: { type: 'local_shell_call', call_id: 'c', action: { command: ['bash', text] } },
      }),
    'openclaw toolResult': (text) =>
      parseOpenClawLine({
        type: 'message',
        timestamp: 't',
        message: { role: 'toolResult', toolName: 'bash', content: text },
      }),
    'openclaw bashExecution': (text) =>
      parseOpenClawLine({
        type: 'message',
        timestamp: 't',
        message: { role: 'bashExecution', command: 'env', output: text },
      }),
    'generic jsonl tool': (text) => parseJsonlLine({ role: 'tool', content: text }),
    'markdown tool': (text) => ({ ok: true, turns: parseMarkdownTranscript(`## tool\n${text}\n`).turns }),
  };
  for (const [name, read] of Object.entries(readers)) {
    for (let k = 1; k <= token.length; k++) {
      const result = read(output(k));
      const text = result.ok ? (result.turns[0]?.text ?? '') : result.reason;
      assert.ok(!text.includes('ghp_'), `${name}, ${k} characters before the cut: ${text.slice(1950, 2060)}`);
      assert.match(text, /… \[\d+ more chars\]$/, name);
    }
  }
});
