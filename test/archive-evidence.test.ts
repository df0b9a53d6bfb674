/** Evidence on demand: `mem context --evidence` and the MCP tool `memory_evidence` with an archive query. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BIN, childEnv, exampleWorkspace, mem } from './helpers/cli.js';

const NOW = '2026-11-22T09:00:00Z';
const LOW = 'RULE-20261120-cap-uploads-at-25-mb'; // confidence 0.75, below the 0.8 threshold
const HIGH = 'RULE-20261120-every-migration-needs-a-rollback-script'; // 0.9

interface Pack {
  tokens: number;
  budget: number;
  items: Array<{ id: string; layer: number; evidence?: string[] }>;
  text: string;
}

async function pack(ws: string, ...args: string[]): Promise<Pack> {
  const r = await mem([
    '-C',
    ws,
    '--json',
    '--now',
    NOW,
    'context',
    '--query',
    'uploads 25 MB migration rollback script',
    ...args,
  ]);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as Pack;
}

test('context --evidence adds at most 2 redacted excerpts to low-confidence query items, inside the budget', async (t) => {
  const { ws } = exampleWorkspace(t);
  assert.equal((await mem(['-C', ws, 'microsync', '--since', 'all', '--now', NOW])).code, 0);
  const plain = await pack(ws, '--budget', '4000');
  assert.ok(plain.items.some((i) => i.id === LOW) && plain.items.some((i) => i.id === HIGH));
  assert.ok(
    plain.items.every((i) => !i.evidence),
    'no evidence unless asked for',
  );

  const full = await pack(ws, '--budget', '4000', '--evidence');
  const low = full.items.find((i) => i.id === LOW)!;
  assert.equal(low.layer, 2);
  assert.deepEqual(low.evidence?.length, 2);
  assert.match(low.evidence![0]!, /^\[12\] assistant · 2026-11-20T\S+: .*Shall we cap uploads at 25 MB\?/);
  assert.match(full.text, /\n  > \[13\] user · 2026-11-20T\S+: Yes, agreed\.\n/);
  assert.equal(full.items.find((i) => i.id === HIGH)!.evidence, undefined, 'confidence 0.9 needs no evidence');
  assert.ok(full.tokens > plain.tokens && full.tokens <= full.budget);

  // A budget with room for the items but not for the excerpts keeps the items and drops excerpts.
  const tight = await pack(ws, '--budget', String(plain.tokens), '--evidence');
  assert.deepEqual(
    tight.items.map((i) => i.id),
    plain.items.map((i) => i.id),
  );
  assert.ok(tight.tokens <= plain.tokens);
  assert.ok(!tight.items.some((i) => (i.evidence?.length ?? 0) === 2));
});

test('memory_evidence answers an archive query like mem search --archive, and refuses id and query together', async (t) => {
  const { ws } = exampleWorkspace(t);
  assert.equal((await mem(['-C', ws, 'archive'])).code, 0);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, '-C', ws, '--now', NOW, 'mcp'],
    env: childEnv() as Record<string, string>,
    stderr: 'pipe',
  });
  const c = new Client({ name: 'memfold-test', version: '1.0.0' });
  await c.connect(transport);
  t.after(() => c.close());
  const r = (await c.callTool({ name: 'memory_evidence', arguments: { query: 'weekend', k: 3 } })) as {
    isError?: boolean;
    structuredContent?: { tier: string; results: Array<{ sessionId: string }> };
  };
  assert.ok(!r.isError);
  assert.equal(r.structuredContent!.tier, 'archive');
  assert.equal(r.structuredContent!.results[0]!.sessionId, 'standup-2026-11-21');
  const cli = JSON.parse((await mem(['-C', ws, '--json', 'search', '--archive', 'weekend', '-k', '3'])).stdout);
  assert.deepEqual(r.structuredContent, cli);
  const both = (await c.callTool({ name: 'memory_evidence', arguments: { query: 'weekend', id: LOW } })) as {
    isError?: boolean;
    content: Array<{ text?: string }>;
  };
  assert.ok(both.isError);
  assert.match(both.content[0]!.text!, /either id or query/);
});
