/**
 * A typed id (issue 31 item 6): the read commands (`mem get`, `trace`, `source`, MCP `memory_get`)
 * take the exact id, another case of it, or a prefix only one id has; an ambiguous prefix or a miss is
 * one line naming the ids it fits or the nearest ones, exit non-zero; `forget --hard` and `restore`
 * still need the exact id. The resolver is pure (entries/id-resolve.ts) and tested directly; the CLI
 * test runs the fast read bundle and the full CLI on one workspace.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { resolveId } from '../src/entries/id-resolve.js';
import { BIN, childEnv, exampleWorkspace, mem } from './helpers/cli.js';

const IDS = [
  'DECISION-20261120-move-the-event-store-to-postgresql',
  'RULE-20261120-cap-uploads-at-25-mb',
  'RULE-20261120-every-migration-needs-a-rollback-script',
  'NOTE-20261121-部署前要先跑-smoke-test',
  'NOTE-20261121-deploy-window',
  'NOTE-20261121-deploy-window-2',
];

test('resolveId: exact, another case, a unique prefix; ambiguous and missing queries name ids', () => {
  assert.deepEqual(resolveId('NOTE-20261121-deploy-window', IDS), {
    kind: 'found',
    id: 'NOTE-20261121-deploy-window',
    how: 'exact',
  });
  assert.deepEqual(resolveId('rule-20261120-CAP-uploads-at-25-mb', IDS), {
    kind: 'found',
    id: 'RULE-20261120-cap-uploads-at-25-mb',
    how: 'case',
  });
  assert.deepEqual(resolveId('rule-20261120-cap', IDS), {
    kind: 'found',
    id: 'RULE-20261120-cap-uploads-at-25-mb',
    how: 'prefix',
  });
  assert.deepEqual(resolveId('NOTE-20261121-部署', IDS), {
    kind: 'found',
    id: 'NOTE-20261121-部署前要先跑-smoke-test',
    how: 'prefix',
  });
  // An id that is a prefix of its own collision version is named exactly, not ambiguously.
  assert.deepEqual(resolveId('note-20261121-deploy-window', IDS), {
    kind: 'found',
    id: 'NOTE-20261121-deploy-window',
    how: 'case',
  });
  assert.deepEqual(resolveId('RULE-20261120', IDS), { kind: 'ambiguous', matches: [IDS[1], IDS[2]] });
  assert.deepEqual(resolveId('RULE-20261120-cap-uplods', IDS), { kind: 'none', near: [IDS[1]] });
  assert.deepEqual(resolveId('DECISION-20261122-move-the-event-store', IDS), { kind: 'none', near: [IDS[0]] });
  assert.deepEqual(resolveId('部署前', IDS), { kind: 'none', near: [IDS[3]] });
  assert.deepEqual(resolveId('zzzz', IDS), { kind: 'none', near: [] });
  assert.deepEqual(resolveId('  ', IDS), { kind: 'none', near: [] });
});

test('get, trace, source and MCP memory_get take a prefix or any case; forget --hard and restore need the exact id', async (t) => {
  const { ws } = exampleWorkspace(t);
  assert.equal((await mem(['-C', ws, 'microsync', '--since', 'all', '--now', '2026-11-22T09:00:00Z'])).code, 0);
  const cap = 'RULE-20261120-cap-uploads-at-25-mb';
  const run = (...args: string[]) => mem(['-C', ws, ...args]);

  // The fast read bundle and the full CLI (MEM_LEAN_CLI=0) answer alike.
  for (const env of [{}, { MEM_LEAN_CLI: '0' }]) {
    const r = await mem(['-C', ws, '--json', 'get', 'rule-20261120-cap'], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).id, cap);
    const amb = await mem(['-C', ws, 'get', 'RULE-20261120'], { env });
    assert.equal(amb.code, 2);
    assert.equal(
      amb.stderr,
      `mem: "RULE-20261120" fits 2 entry ids: ${cap}, RULE-20261120-every-migration-needs-a-rollback-script; give more of the id\n`,
    );
    const miss = await mem(['-C', ws, 'get', 'RULE-20261120-cap-uplods'], { env });
    assert.equal(miss.code, 1);
    assert.equal(miss.stderr, `mem: no entry with id RULE-20261120-cap-uplods; nearest: ${cap}\n`);
  }
  const upper = await run('--json', 'get', cap.toUpperCase());
  assert.equal(JSON.parse(upper.stdout).id, cap, upper.stderr);
  const trace = await run('--json', 'trace', 'decision-20261120-move');
  assert.equal(JSON.parse(trace.stdout).id, 'DECISION-20261120-move-the-event-store-to-postgresql', trace.stderr);
  const source = await run('--json', 'source', 'rule-20261120-cap');
  assert.equal(JSON.parse(source.stdout).id, cap, source.stderr);

  const client = new Client({ name: 'memfold-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, '-C', ws, 'mcp'],
      env: childEnv() as Record<string, string>,
      stderr: 'pipe',
    }),
  );
  try {
    const got = (await client.callTool({ name: 'memory_get', arguments: { id: 'Rule-20261120-Cap' } })) as {
      isError?: boolean;
      structuredContent?: { id: string };
    };
    assert.equal(got.structuredContent?.id, cap);
    const amb = (await client.callTool({ name: 'memory_get', arguments: { id: 'rule-20261120' } })) as {
      isError?: boolean;
      content: { text: string }[];
    };
    assert.ok(amb.isError);
    assert.match(amb.content[0]!.text, /"rule-20261120" fits 2 entry ids/);
  } finally {
    await client.close();
  }

  const daily = readFileSync(join(ws, 'memory', '2026-11-20.md'), 'utf8');
  const forget = await run('forget', 'rule-20261120-cap', '--hard', '--yes');
  assert.equal(forget.code, 1);
  assert.match(forget.stderr, /^mem: no entry with id rule-20261120-cap/);
  const restore = await run('restore', cap.toLowerCase());
  assert.equal(restore.code, 1);
  assert.match(
    restore.stderr,
    new RegExp(
      `^mem: no entry with id ${cap.toLowerCase()} .*; did you mean ${cap}\\? \\(this command takes the exact id\\)\\n$`,
    ),
  );
  assert.equal(readFileSync(join(ws, 'memory', '2026-11-20.md'), 'utf8'), daily);
});
