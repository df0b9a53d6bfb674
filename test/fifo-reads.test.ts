/**
 * Reads an agent or a person asks for never open a FIFO: reading one never returns, blocks SIGTERM,
 * and kept `mem mcp` alive after its client went away. memory_get on a FIFO (or a folder) named like
 * memory, and a transcript that is a FIFO behind `mem context --evidence` or `mem export
 * --with-evidence`, each give one line naming the path, and the command ends.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { BIN, childEnv, finished, mem } from './helpers/cli.js';
import { daily, workspace } from './fixtures/governance/workspace.js';

const skip = process.platform === 'win32' ? 'no FIFOs on Windows' : false;
const NOW = '2026-11-22T10:00:00Z';
const ID = 'NOTE-20261120-kafka-brokers-need-three-replicas';

/** A workspace with one low-confidence entry whose transcript is a FIFO, and a FIFO named memory/notes.md. */
function fixture(t: Parameters<typeof workspace>[0]) {
  const ws = workspace(t, { 'memory/.keep': '' });
  const transcript = join(ws, 'pipe.jsonl');
  execFileSync('mkfifo', [transcript, join(ws, 'memory', 'notes.md')]);
  writeFileSync(
    join(ws, 'memory', '2026-11-20.md'),
    daily('2026-11-20', [
      [
        '## Note: Kafka brokers need three replicas',
        `- id: ${ID}`,
        '- date: 2026-11-20',
        '- source:',
        '  - session_id: s1',
        `  - session_path: ${transcript}`,
        '  - message_range: 1-1',
        '- conclusion: kafka brokers need three replicas',
        '- confidence: 0.5',
        '- origin: user',
        '- status: active',
        '',
      ].join('\n'),
    ]),
  );
  return { ws, transcript };
}

test(
  'memory_get on a FIFO or a folder names the path, lines past the end are an error, and the server exits when stdin closes',
  { skip },
  async (t) => {
    const { ws } = fixture(t);
    mkdirSync(join(ws, 'memory', 'folder.md'));
    const child = spawn(process.execPath, [BIN, '-C', ws, '--now', NOW, 'mcp'], {
      env: childEnv(),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const done = finished(child, 20_000);
    const replies = new Map<number, { result: { isError?: boolean; content: Array<{ text: string }> } }>();
    let pending = '';
    const answered = new Promise<void>((resolve) => {
      child.on('close', () => resolve());
      child.stdout.on('data', (d: Buffer) => {
        pending += d.toString('utf8');
        for (let i; (i = pending.indexOf('\n')) >= 0; pending = pending.slice(i + 1)) {
          const reply = JSON.parse(pending.slice(0, i));
          replies.set(reply.id, reply);
        }
        if ([2, 3, 4].every((id) => replies.has(id))) resolve();
      });
    });
    const request = (id: number, method: string, params: object) =>
      JSON.stringify({ jsonrpc: '2.0', id, method, params });
    const get = (id: number, args: object) => request(id, 'tools/call', { name: 'memory_get', arguments: args });
    child.stdin.write(
      [
        request(1, 'initialize', {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 't', version: '1' },
        }),
        JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
        get(2, { path: 'memory/notes.md' }),
        get(3, { path: 'memory/folder.md' }),
        get(4, { path: 'memory/2026-11-20.md', lines: '100-200' }),
      ].join('\n') + '\n',
    );
    await answered;
    child.stdin.end();
    const r = await done;
    assert.equal(r.code, 0, r.stderr);
    const text = (id: number) => {
      assert.equal(replies.get(id)?.result.isError, true, JSON.stringify(replies.get(id)));
      return replies.get(id)!.result.content[0]!.text;
    };
    assert.equal(text(2), 'memory_get failed: memory/notes.md is a FIFO, not a Markdown file');
    assert.equal(text(3), 'memory_get failed: memory/folder.md is a folder, not a Markdown file');
    assert.match(
      text(4),
      /^memory_get failed: lines "100-200" start past the end of memory\/2026-11-20\.md \(\d+ lines\)$/,
    );
  },
);

test(
  'mem context --evidence and mem export --with-evidence end on a FIFO transcript, naming it',
  { skip },
  async (t) => {
    const { ws, transcript } = fixture(t);
    const ctx = await mem(
      ['-C', ws, '--now', NOW, '--json', 'context', '--query', 'kafka brokers replicas', '--evidence'],
      { timeoutMs: 20_000 },
    );
    assert.equal(ctx.code, 0, ctx.stderr);
    const pack = JSON.parse(ctx.stdout) as { items: Array<{ id: string; evidence?: string[] }>; warnings: string[] };
    assert.deepEqual(
      pack.items.map((i) => [i.id, i.evidence]),
      [[ID, undefined]],
    );
    assert.deepEqual(
      pack.warnings.filter((w) => w.startsWith('no evidence')),
      [`no evidence for ${ID}: ${ID}: its transcript ${transcript} is a FIFO, not a file; not read`],
    );

    const exp = await mem(['-C', ws, 'export', '--with-evidence'], { timeoutMs: 20_000 });
    assert.equal(exp.code, 0, exp.stderr);
    const entries = (JSON.parse(exp.stdout) as { entries: Array<{ id: string; evidence?: unknown }> }).entries;
    assert.deepEqual(
      entries.map((e) => [e.id, e.evidence]),
      [[ID, { error: `${ID}: its transcript ${transcript} is a FIFO, not a file; not read` }]],
    );
  },
);
