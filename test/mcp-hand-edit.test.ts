/**
 * The long-lived `mem mcp` keeps the files it parsed for whole entries (entries/table-store.ts
 * wholeRecords) under the stamp it read them with: a hand edit that keeps the file's size is in the
 * next memory_get and memory_context, before `mem index` stores the table again and after. It also
 * keeps the table's buckets it parsed (entries/kept-files.ts) under their file's stamp: after an edit
 * that moves the entry down and `mem index`, memory_get gives its new lines, not the kept bucket's.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BIN, childEnv, memOk } from './helpers/cli.js';
import { daily, entry, workspace } from './fixtures/governance/workspace.js';

const ID = 'RULE-20261120-events-live-in-postgresql';

test('mem mcp: a same-size hand edit is in the next memory_get and memory_context', async (t) => {
  const ws = workspace(t, {
    'memory/2026-11-20.md': daily('2026-11-20', [
      entry({
        id: ID,
        title: 'Events live in PostgreSQL',
        date: '2026-11-20',
        fields: { conclusion: 'PostgreSQL 16 stores the events', scope: 'global' },
      }),
    ]),
  });
  await memOk(['-C', ws, 'index']);
  const client = new Client({ name: 'memfold-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, '-C', ws, 'mcp'],
      env: childEnv() as Record<string, string>,
      stderr: 'pipe',
    }),
  );
  t.after(() => client.close());
  const call = async (name: string, args: Record<string, unknown>) => {
    const r = (await client.callTool({ name, arguments: args })) as {
      isError?: boolean;
      content: Array<{ text?: string }>;
      structuredContent?: Record<string, any>;
    };
    assert.ok(!r.isError, r.content[0]?.text);
    return r.structuredContent!;
  };
  const read = async () => ({
    get: JSON.stringify(await call('memory_get', { id: ID })),
    context: (await call('memory_context', {})).text as string,
  });
  const before = await read();
  assert.match(before.get, /PostgreSQL 16/);
  assert.match(before.context, /PostgreSQL 16/);
  assert.deepEqual(await read(), before, 'a second call answers the same');
  const file = join(ws, 'memory', '2026-11-20.md');
  writeFileSync(file, readFileSync(file, 'utf8').replace('PostgreSQL 16', 'PostgreSQL 17'));
  // Before the table has seen it (the edited file is parsed in memory), and after `mem index` stored it.
  for (const when of ['edited', 'indexed']) {
    if (when === 'indexed') await memOk(['-C', ws, 'index']);
    const after = await read();
    assert.match(after.get, /PostgreSQL 17/, when);
    assert.match(after.context, /PostgreSQL 17/, when);
  }
  const lines = async () => {
    const g = await call('memory_get', { id: ID });
    return [g.startLine, g.endLine];
  };
  const [start, end] = await lines();
  const above = `${entry({ id: 'NOTE-20261120-first', title: 'A note above it', date: '2026-11-20', fields: { conclusion: 'first' } })}\n`;
  writeFileSync(file, readFileSync(file, 'utf8').replace('\n## ', `\n${above}## `));
  await memOk(['-C', ws, 'index']);
  const shift = above.split('\n').length - 1;
  assert.deepEqual(await lines(), [start + shift, end + shift], 'the entry moved down, as the rewritten bucket says');
});
