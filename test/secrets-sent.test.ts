/**
 * A secret pasted by hand into a memory file never reaches an agent (DESIGN §8: redacted before
 * anything is sent): not through an MCP tool (memory_search snippets and texts, memory_get by path,
 * with or without lines, and by id, memory_context), nor in a `mem context` pack. `mem search` and
 * `mem get` still show the file as it is to the person at their own terminal.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BIN, childEnv, memOk } from './helpers/cli.js';
import { daily, entry, workspace } from './fixtures/governance/workspace.js';
import { SECRET_SAMPLES } from './fixtures/secrets/corpus.js';

const NOW = '2026-11-22T10:00:00Z';
const AWS = 'AKIAIOSFODNN7EXAMPLE';
const PASSWORD = 'Hunter2Hunter2!';
const PEM = SECRET_SAMPLES.find((s) => s.kind === 'private-key')!.secret;
const ID = 'NOTE-20261120-staging-access-for-the-shop';
const SECRETS = [AWS, PASSWORD, PEM];

/** Every 8-character piece of each secret still in `text`. */
function leaks(text: string): string[] {
  const found: string[] = [];
  for (const s of SECRETS)
    for (let i = 0; i + 8 <= s.length; i++) if (text.includes(s.slice(i, i + 8))) found.push(s.slice(i, i + 8));
  return found;
}

// The AWS key ends a long line, across where a search snippet is cut (240 characters).
const KEYS = `# Keys\n\n${'the deploy notes say '.repeat(10)}and so on aws key ${AWS}\n\nStaging: password=${PASSWORD}\n\nDeploy key:\n${PEM}\n\nThe end.\n`;
// A paragraph on one line, past the 2,000 characters a search result stores: its snippet comes from
// the file's whole text, in a window that begins inside the password's label ("word=Hunter2…").
const LONG_KEYS = `# Long keys\n\n${'the deploy notes say '.repeat(110)}password=${PASSWORD} ${'x'.repeat(37)} okapi ledger ${'and so on '.repeat(30)}\n`;
/** The line the private key begins on (1-based). */
const PEM_LINE = KEYS.split('\n').indexOf('Deploy key:') + 2;

function fixture(t: Parameters<typeof workspace>[0]): string {
  return workspace(t, {
    'memory/projects/keys.md': KEYS,
    'memory/projects/long-keys.md': LONG_KEYS,
    'memory/2026-11-20.md': daily('2026-11-20', [
      entry({
        id: ID,
        title: 'Staging access for the shop',
        date: '2026-11-20',
        fields: { conclusion: `log in with password=${PASSWORD} and aws key ${AWS}`, scope: 'project:shop' },
      }),
    ]),
  });
}

test('MCP tools and mem context send no hand-written secret; mem search and mem get show the file as it is', async (t) => {
  const ws = fixture(t);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, '-C', ws, '--now', NOW, 'mcp'],
    env: childEnv() as Record<string, string>,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'memfold-test', version: '1.0.0' });
  await client.connect(transport);
  t.after(() => client.close());
  const call = async (name: string, args: Record<string, unknown>) => {
    const r = (await client.callTool({ name, arguments: args })) as {
      isError?: boolean;
      content: Array<{ text: string }>;
      structuredContent: Record<string, any>;
    };
    assert.ok(!r.isError, r.content[0]?.text);
    assert.deepEqual(leaks(JSON.stringify(r)), [], `${name} ${JSON.stringify(args)}`);
    return r.structuredContent;
  };

  const search = await call('memory_search', { query: 'deploy notes aws key', k: 10 });
  const hit = search.results.find((r: { path: string }) => r.path === 'memory/projects/keys.md');
  assert.match(hit.snippet, /aws key \[REDACTED:a…$/);
  await call('memory_search', { query: 'staging password', k: 10 });
  const long = await call('memory_search', { query: 'okapi ledger', k: 3 });
  assert.match(long.results[0].snippet, /^…\S*\] x+ okapi ledger and so on/);

  const whole = await call('memory_get', { path: 'memory/projects/keys.md' });
  assert.equal(whole.totalLines, KEYS.split('\n').length - 1, 'redacting keeps the line count');
  assert.equal(whole.text.split('\n')[PEM_LINE - 1], '[REDACTED:private-key]');
  assert.match(whole.text, /^The end\.$/m);
  // Lines from the middle of the key: it is redacted before they are cut.
  const middle = await call('memory_get', {
    path: 'memory/projects/keys.md',
    lines: `${PEM_LINE + 2}-${PEM_LINE + 4}`,
  });
  assert.equal(middle.text.trim(), '');
  const byId = await call('memory_get', { id: ID });
  assert.match(byId.fields.conclusion, /password=\[REDACTED:password\]/);
  const ctx = await call('memory_context', { scope: 'project:shop' });
  assert.deepEqual(
    ctx.items.map((i: { id: string }) => i.id),
    [ID],
  );

  for (const format of ['md', 'json']) {
    const pack = await memOk(['-C', ws, '--now', NOW, 'context', '--scope', 'project:shop', '--format', format]);
    assert.deepEqual(leaks(pack.stdout), [], format);
    assert.match(pack.stdout, /password=\[REDACTED:password\]/);
  }

  // The person at their own terminal reads their own file as it is.
  assert.ok((await memOk(['-C', ws, 'get', ID])).stdout.includes(PASSWORD));
  assert.ok((await memOk(['-C', ws, 'search', 'staging password'])).stdout.includes(PASSWORD));
});
