/**
 * Drill-down through a real `mem mcp` child over stdio (the SDK's client): `memory_list` pages through
 * the memory files and days newest first with counts by kind, every row's `open` call reads it, and a
 * file written between two pages shifts nothing; `memory_search` hits carry the calls that open the
 * entry and its evidence, and those calls work as given.
 */
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BIN, childEnv, exampleWorkspace, mem, ROOT, tempDir } from './helpers/cli.js';
import { callTool, connectMcp, type McpResult } from './helpers/mcp-client.js';
import { daily, entry, workspace } from './fixtures/governance/workspace.js';

const NOW = '2026-11-22T10:00:00Z';

const connect = (t: { after(fn: () => Promise<void> | void): void }, ws: string) => connectMcp(t, ws, NOW);

type Result = McpResult;
type Call = { tool: string; arguments: Record<string, unknown> };
const call = callTool;
const ok = (r: Result) => {
  assert.ok(!r.isError, r.content[0]?.text);
  return r.structuredContent!;
};
const run = async (c: Client, x: Call) => ok(await call(c, x.tool, x.arguments));

function fixture(t: { after(fn: () => void): void }): string {
  const ws = workspace(t, {
    'MEMORY.md': '# MEMORY\n\n## Core rules\n- Deploys happen on Tuesdays only\n',
    'memory/2026-11-20.md': daily('2026-11-20', [
      entry({
        id: 'DECISION-20261120-use-postgresql',
        title: 'Use PostgreSQL',
        date: '2026-11-20',
        fields: { conclusion: 'PostgreSQL 16 stores the events' },
      }),
      entry({
        id: 'RULE-20261120-tuesday-deploys',
        title: 'Tuesday deploys',
        date: '2026-11-20',
        fields: { conclusion: 'Deploys happen on Tuesdays only' },
      }),
      entry({
        id: 'RULE-20261120-no-force-push',
        title: 'No force push',
        date: '2026-11-20',
        fields: { conclusion: 'Never force-push main' },
      }),
    ]),
    'memory/2026-11-21.md': daily('2026-11-21', [
      entry({
        id: 'NOTE-20261121-vpn-cert',
        title: 'VPN cert',
        date: '2026-11-21',
        fields: { conclusion: 'The VPN certificate expires on 2027-01-31' },
      }),
    ]),
    'memory/2026-11-18.md': daily('2026-11-18', [
      entry({
        id: 'NOTE-20261118-staging-host',
        title: 'Staging host',
        date: '2026-11-18',
        fields: { conclusion: 'Staging runs on host blue-7' },
      }),
    ]),
    'memory/archive/weekly-2026-W47.md': '# Weekly log 2026-W47\n',
    'second-brain/summaries/2026-11-21-wrapup.md': '# Wrap-up 2026-11-21\n\n- Fixed the deploy cache\n',
  });
  // Files without a day in their name are dated by their modification time.
  utimesSync(join(ws, 'MEMORY.md'), new Date('2026-11-22T08:00:00Z'), new Date('2026-11-22T08:00:00Z'));
  utimesSync(
    join(ws, 'memory/archive/weekly-2026-W47.md'),
    new Date('2026-11-19T08:00:00Z'),
    new Date('2026-11-19T08:00:00Z'),
  );
  return ws;
}

describe('mcp drill-down', { concurrency: 2 }, () => {
  test('memory_list pages files newest first with counts by kind; each open call reads its file; a new file shifts no page', async (t) => {
    const ws = fixture(t);
    const c = await connect(t, ws);
    assert.ok((await c.listTools()).tools.some((x) => x.name === 'memory_list'));

    const rows: Array<{
      path: string;
      day: string;
      lines: number;
      entries: number;
      kinds: Record<string, number>;
      open: Call;
    }> = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = ok(await call(c, 'memory_list', { limit: 2, ...(cursor ? { cursor } : {}) }));
      assert.equal(page.total, 6 + (pages >= 1 ? 1 : 0));
      rows.push(...page.items);
      cursor = page.nextCursor ?? undefined;
      // After the first page, microsync writes today's file: it is newer than every row seen, so no later page holds it or repeats one.
      if (pages++ === 0)
        writeFileSync(
          join(ws, 'memory/2026-11-22.md'),
          daily('2026-11-22', [
            entry({
              id: 'NOTE-20261122-new',
              title: 'New',
              date: '2026-11-22',
              fields: { conclusion: 'Written between two pages' },
            }),
          ]),
        );
    } while (cursor);
    assert.equal(pages, 3);
    assert.deepEqual(
      rows.map((r) => [r.day, r.path]),
      [
        ['2026-11-22', 'MEMORY.md'],
        ['2026-11-21', 'memory/2026-11-21.md'],
        ['2026-11-21', 'second-brain/summaries/2026-11-21-wrapup.md'],
        ['2026-11-20', 'memory/2026-11-20.md'],
        ['2026-11-19', 'memory/archive/weekly-2026-W47.md'],
        ['2026-11-18', 'memory/2026-11-18.md'],
      ],
    );
    const day20 = rows[3]!;
    assert.deepEqual([day20.entries, day20.kinds], [3, { Decision: 1, Rule: 2 }]);
    assert.equal(rows[0]!.entries, 0);
    for (const r of rows) {
      const got = await run(c, r.open);
      assert.equal(got.path, r.path);
      assert.equal(got.totalLines, r.lines);
    }

    const days = ok(await call(c, 'memory_list', { group: 'day', under: 'memory' }));
    assert.deepEqual(
      days.items.map((d: { day: string; files: string[]; entries: number }) => [d.day, d.files, d.entries]),
      [
        ['2026-11-22', ['memory/2026-11-22.md'], 1],
        ['2026-11-21', ['memory/2026-11-21.md'], 1],
        ['2026-11-20', ['memory/2026-11-20.md'], 3],
        ['2026-11-19', ['memory/archive/weekly-2026-W47.md'], 0],
        ['2026-11-18', ['memory/2026-11-18.md'], 1],
      ],
    );
    assert.equal(days.nextCursor, null);

    const bad = await call(c, 'memory_list', { cursor: 'not-a-cursor' });
    assert.equal(bad.isError, true);
    assert.match(bad.content[0]!.text!, /memory_list failed: cursor is not one memory_list returned/);
    const big = await call(c, 'memory_list', { limit: 500 });
    assert.equal(big.isError, true);
  });

  test('memory_search hits name the calls that open the entry and its evidence, and those calls answer', async (t) => {
    const { ws } = exampleWorkspace(t);
    assert.equal((await mem(['-C', ws, 'microsync', '--since', 'all', '--now', NOW])).code, 0);
    mkdirSync(join(ws, 'memory/projects'), { recursive: true });
    writeFileSync(
      join(ws, 'memory/projects/uploads.md'),
      '# Upload notes\n\nThe upload proxy buffers whole files before the cap applies.\n',
    );
    const c = await connect(t, ws);
    ok(await call(c, 'memory_remember', { text: 'Upload limits are documented in the API handbook.', kind: 'note' }));

    const search = ok(await call(c, 'memory_search', { query: 'cap uploads 25 MB', k: 6 }));
    const hit = search.results.find((h: { id: string | null }) => h.id === 'RULE-20261120-cap-uploads-at-25-mb');
    assert.ok(hit, JSON.stringify(search.results.map((h: { id: string }) => h.id)));
    assert.deepEqual(hit.open, { tool: 'memory_get', arguments: { id: hit.id } });
    assert.deepEqual(hit.evidence, { tool: 'memory_evidence', arguments: { id: hit.id } });
    assert.equal((await run(c, hit.open)).id, hit.id);
    const turns = await run(c, hit.evidence);
    assert.match(JSON.stringify(turns), /Shall we cap uploads at 25 MB\?/);
    // maxChars bounds the hits' text as mem search --max-chars does.
    const chars = (r: Record<string, any>) => (r.results as { text: string }[]).reduce((n, h) => n + h.text.length, 0);
    assert.ok(chars(search) > 300, `${chars(search)} characters`);
    const small = ok(await call(c, 'memory_search', { query: 'cap uploads 25 MB', k: 6, maxChars: 300 }));
    assert.ok(small.results.length >= 1 && chars(small) <= 300, `${chars(small)} characters`);
    assert.match(small.warnings.at(-1), /^maxChars 300: /);

    // An entry remembered through MCP cites no transcript: nothing to show as evidence.
    const manual = search.results.find((h: { id: string | null }) => h.id?.startsWith('NOTE-20261122-upload-limits'));
    assert.ok(manual);
    assert.equal(manual.evidence, null);
    // A hit that is no entry (a hand-kept project note) opens by path and lines.
    const notes = ok(await call(c, 'memory_search', { query: 'upload proxy buffers whole files' }));
    const plain = notes.results.find((h: { path: string }) => h.path === 'memory/projects/uploads.md');
    assert.ok(plain && plain.id === null, JSON.stringify(notes.results.map((h: { path: string }) => h.path)));
    assert.deepEqual(
      [plain.open, plain.evidence],
      [{ tool: 'memory_get', arguments: { path: plain.path, lines: `${plain.startLine}-${plain.endLine}` } }, null],
    );
    assert.match((await run(c, plain.open)).text, /The upload proxy buffers whole files/);
  });

  test('the MCP server recipes of docs/agents.md (.mcp.json, config.toml, OpenClaw mcp.servers) start a server that answers', async (t) => {
    const ws = fixture(t);
    const root = tempDir(t, 'memfold-recipe-');
    const bin = join(root, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'mem'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    chmodSync(join(bin, 'mem'), 0o755);
    const doc = readFileSync(join(ROOT, 'docs/agents.md'), 'utf8');
    const servers: Array<{ command: string; args: string[] }> = [];
    const claude = /```json\n(\{ "mcpServers"[^\n]*)\n```/.exec(doc);
    servers.push(
      (JSON.parse(claude![1]!) as { mcpServers: Record<string, { command: string; args: string[] }> }).mcpServers
        .memfold!,
    );
    const toml = /\[mcp_servers\.memfold\]\ncommand = "([^"]+)"\nargs = (\[[^\n]*\])/.exec(doc);
    servers.push({ command: toml![1]!, args: JSON.parse(toml![2]!) as string[] });
    const openclaw = /```json\n(\{ "mcp": \{ "servers"[^\n]*)\n```/.exec(doc);
    servers.push(
      (JSON.parse(openclaw![1]!) as { mcp: { servers: Record<string, { command: string; args: string[] }> } }).mcp
        .servers.memfold!,
    );
    for (const s of servers) {
      // The recipe's placeholder workspace is this test's; without -C the server finds it through MEM_WORKSPACE.
      const args = s.args.map((a) => (a === '/home/you/memory' ? ws : a));
      const transport = new StdioClientTransport({
        command: join(bin, s.command),
        args,
        env: childEnv({ MEM_WORKSPACE: ws }) as Record<string, string>,
        stderr: 'pipe',
      });
      const client = new Client({ name: 'memfold-recipe', version: '1.0.0' });
      await client.connect(transport);
      try {
        const list = ok((await client.callTool({ name: 'memory_list', arguments: { limit: 1 } })) as Result);
        assert.equal(list.items[0].path, 'MEMORY.md', `${s.command} ${s.args.join(' ')}`);
      } finally {
        await client.close();
      }
    }
  });
});
