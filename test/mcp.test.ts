/** `mem mcp` through the official SDK client, which spawns `node bin/mem.js -C <ws> mcp` over stdio. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { BIN, childEnv, exampleWorkspace, finished, mem } from './helpers/cli.js';
import { callTool, connectMcp, type McpResult } from './helpers/mcp-client.js';
import { daily, entry, workspace } from './fixtures/governance/workspace.js';
import { SAMPLE_SECRETS } from './fixtures/secrets/corpus.js';

const NOW = '2026-11-22T10:00:00Z';
const OLD = 'DECISION-20261101-use-sqlite-for-events';
const NEW = 'DECISION-20261120-move-the-event-store-to-postgresql';
const GONE = 'NOTE-20261121-old-postgres-password-hint';

const connect = (t: { after(fn: () => Promise<void> | void): void }, ws: string) => connectMcp(t, ws, NOW);

type Result = McpResult;
const call = callTool;
const ok = (r: Result) => {
  assert.ok(!r.isError, r.content[0]?.text);
  // The text block holds the same JSON as structuredContent (and as the CLI's --json).
  assert.deepEqual(JSON.parse(r.content[0]!.text!), r.structuredContent);
  return r.structuredContent!;
};

function fixture(t: { after(fn: () => void): void }): string {
  return workspace(t, {
    'memory/2026-11-20.md': daily('2026-11-20', [
      entry({
        id: OLD,
        title: 'Use SQLite for events',
        date: '2026-11-01',
        fields: { conclusion: 'SQLite stores the events', status: 'superseded' },
      }),
      entry({
        id: NEW,
        title: 'Move the event store to PostgreSQL',
        date: '2026-11-20',
        fields: { conclusion: 'PostgreSQL 16 stores the events', supersedes: OLD, core: 'true' },
      }),
      entry({
        id: GONE,
        title: 'Old postgres password hint',
        date: '2026-11-21',
        fields: { conclusion: 'postgres events hint', status: 'retracted' },
      }),
    ]),
    'memory/archive/weekly-2026-W47.md': `# Weekly log 2026-W47\n\n## Run 2026-11-21T10:00:00Z\n\n- superseded: ${OLD} (explicit supersedes in ${NEW})\n`,
  });
}

describe('mem mcp', { concurrency: 2 }, () => {
  test('lists the tools and answers each with the CLI JSON', async (t) => {
    const ws = fixture(t);
    const c = await connect(t, ws);
    const tools = (await c.listTools()).tools;
    assert.deepEqual(
      tools.map((x) => x.name),
      [
        'memory_search',
        'memory_get',
        'memory_list',
        'memory_context',
        'memory_remember',
        'memory_trace',
        'memory_evidence',
      ],
    );
    assert.deepEqual((tools[0]!.inputSchema as { required?: string[] }).required, ['query']);

    const search = ok(
      await call(c, 'memory_search', { query: 'postgres events', k: 5, filters: { kind: 'decision' } }),
    );
    assert.equal(search.results[0].id, NEW);
    assert.ok(!search.results.some((h: { id: string }) => h.id === GONE), 'retracted entries are not answers');
    const cli = JSON.parse(
      (await mem(['-C', ws, '--now', NOW, '--json', 'search', 'postgres events', '-k', '5', '--kind', 'decision']))
        .stdout,
    );
    assert.deepEqual(
      search.results.map((h: { id: string }) => h.id),
      cli.results.map((h: { id: string }) => h.id),
    );

    const got = ok(await call(c, 'memory_get', { id: NEW }));
    const cliGet = JSON.parse((await mem(['-C', ws, '--json', 'get', NEW])).stdout);
    assert.deepEqual(got, cliGet);
    const lines = ok(await call(c, 'memory_get', { path: 'memory/2026-11-20.md', lines: '3-4' }));
    assert.equal(lines.text, `## Decision: Use SQLite for events\n- id: ${OLD}`);

    const ctx = ok(await call(c, 'memory_context', { query: 'events', budget: 500 }));
    assert.ok(ctx.text.startsWith('<memfold-context>'));
    assert.deepEqual(
      ctx.items.map((i: { id: string }) => i.id),
      [NEW],
    );
    assert.ok(ctx.tokens <= 500);

    const trace = ok(await call(c, 'memory_trace', { id: NEW }));
    assert.deepEqual(
      trace.chain.map((s: { id: string; status: string }) => [s.id, s.status]),
      [
        [OLD, 'superseded'],
        [NEW, 'active'],
      ],
    );
    assert.match(trace.chain[0].log[0].text, /^superseded: /);
    assert.equal(trace.current, NEW);

    // Reads append to the use log, and only there.
    const usage = readFileSync(join(ws, '.mem/usage.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).via);
    assert.deepEqual(usage, ['mcp:memory_search', 'mcp:memory_get', 'get', 'mcp:memory_context']);
  });

  test("memory_search gives a MEMORY.md item its entry's id and status: a retracted entry's item is left out", async (t) => {
    const ws = fixture(t);
    // As compound writes items: the summary, then a link to the cited entry.
    writeFileSync(
      join(ws, 'MEMORY.md'),
      `# MEMORY\n\n## Core rules\n- Move the event store to PostgreSQL ([${NEW}](memory/2026-11-20.md#decision-move-the-event-store-to-postgresql))\n\n## Notes\n- Old postgres password hint ([${GONE}](memory/2026-11-20.md#note-old-postgres-password-hint))\n`,
    );
    const c = await connect(t, ws);
    const items = (r: Record<string, any>) =>
      r.results
        .filter((h: { path: string }) => h.path === 'MEMORY.md')
        .map((h: { id: string; status: string }) => [h.id, h.status]);
    assert.deepEqual(
      items(ok(await call(c, 'memory_search', { query: 'postgres password hint' }))),
      [[NEW, 'active']],
      'the item of the retracted entry is left out',
    );
    assert.deepEqual(
      items(ok(await call(c, 'memory_search', { query: 'postgres password hint', filters: { status: 'retracted' } }))),
      [[GONE, 'retracted']],
    );
    assert.deepEqual(items(ok(await call(c, 'memory_search', { query: 'event store postgresql' }))), [[NEW, 'active']]);
  });

  test('memory_remember appends through the remember path (origin agent), once', async (t) => {
    const ws = fixture(t);
    assert.equal((await mem(['-C', ws, 'index'])).code, 0);
    const c = await connect(t, ws);
    const first = ok(
      await call(c, 'memory_remember', {
        text: 'Deploys happen on Tuesdays only.',
        kind: 'rule',
        scope: 'project:shop',
      }),
    );
    assert.deepEqual(first, {
      id: 'RULE-20261122-deploys-happen-on-tuesdays-only',
      file: 'memory/2026-11-22.md',
      added: true,
      redacted: 0,
    });
    // The index took the entry, as after `mem remember`: a search finds it and is not behind.
    const found = JSON.parse((await mem(['-C', ws, '--json', 'search', 'deploys Tuesdays'])).stdout) as {
      indexBehind: boolean;
      results: Array<{ id: string | null }>;
    };
    assert.equal(found.indexBehind, false);
    assert.equal(found.results[0]?.id, first.id);
    const again = ok(
      await call(c, 'memory_remember', {
        text: 'Deploys happen on Tuesdays only.',
        kind: 'rule',
        scope: 'project:shop',
      }),
    );
    assert.equal(again.added, false);
    const text = readFileSync(join(ws, 'memory/2026-11-22.md'), 'utf8');
    assert.equal(text.match(/^## Rule: /gm)?.length, 1);
    assert.match(text, /- origin: agent\n/);
    assert.equal((await mem(['-C', ws, 'lint'])).code, 0);

    // Unconfirmed until a person says so: compound does not promote it; after `mem confirm` it does.
    const M = ['-C', ws, '--now', NOW];
    assert.equal((await mem([...M, 'compound', '--week', '2026-W47'])).code, 0);
    assert.ok(
      !readFileSync(join(ws, 'MEMORY.md'), 'utf8').includes(first.id),
      "an agent's own statement is not promoted",
    );
    const confirmed = await mem([...M, 'confirm', String(first.id)]);
    assert.equal(confirmed.code, 0, confirmed.stderr);
    assert.match(
      readFileSync(join(ws, 'memory/2026-11-22.md'), 'utf8'),
      /- origin: agent\n- confirmed: 2026-11-22 by mem confirm\n/,
    );
    assert.equal((await mem([...M, 'compound', '--week', '2026-W47'])).code, 0);
    assert.ok(readFileSync(join(ws, 'MEMORY.md'), 'utf8').includes(first.id), 'promoted once confirmed');
    const pack = JSON.parse((await mem([...M, '--json', 'context', '--scope', 'project:shop'])).stdout) as {
      items: Array<{ id: string; layer: number }>;
    };
    assert.ok(
      pack.items.some((i) => i.id === first.id && i.layer === 0),
      JSON.stringify(pack.items),
    );
  });

  test('memory_remember takes the new kinds: a preference keyed from the lexicon, a task with its state', async (t) => {
    const ws = fixture(t);
    const c = await connect(t, ws);
    const pref = ok(
      await call(c, 'memory_remember', { text: 'Use pnpm, not npm.', kind: 'pref', scope: 'project:shop' }),
    );
    assert.match(String(pref.id), /^PREF-20261122-use-pnpm-not-npm$/);
    const task = ok(
      await call(c, 'memory_remember', {
        text: 'The rollback script is written.',
        kind: 'task',
        state: 'done',
        key: 'task:shop:rollback',
        scope: 'project:shop',
      }),
    );
    assert.match(String(task.id), /^TASK-20261122-/);
    const text = readFileSync(join(ws, 'memory/2026-11-22.md'), 'utf8');
    assert.match(text, /- key: pref:tools:package-manager\n- scope: project:shop\n/);
    assert.match(text, /- key: task:shop:rollback\n- scope: project:shop\n- state: done\n/);
    const bad = await call(c, 'memory_remember', { text: 'x', kind: 'task', state: 'finished' });
    assert.equal(bad.isError, true);
  });

  test('memory_remember names a bad or secret-shaped key or scope by its parameter, not by the CLI flag, and writes nothing', async (t) => {
    const ws = fixture(t);
    const c = await connect(t, ws);
    const token = SAMPLE_SECRETS.ghp;
    for (const [name, value] of [
      ['key', `decision:${token}`],
      ['scope', `project:${token}`],
    ] as const) {
      const r = await call(c, 'memory_remember', { text: 'We rotate the deploy token monthly', [name]: value });
      assert.equal(r.isError, true);
      assert.equal(
        r.content[0]!.text,
        `memory_remember failed: ${name} holds something shaped like a secret (github-pat); a ${name} is written to memory as it is: name the thing, not its value`,
      );
    }
    const bad = await call(c, 'memory_remember', { text: 'We rotate the deploy token monthly', key: 'decision:a\nb' });
    assert.equal(
      bad.content[0]!.text,
      'memory_remember failed: key "decision:a\\nb" is not a typed key such as pref:writing:tone or decision:shop:database (at most 200 characters)',
    );
    assert.deepEqual(
      readdirSync(join(ws, 'memory')).filter((f) => f.startsWith('2026-11-22')),
      [],
      'nothing written',
    );
  });

  test('bad arguments give isError results; an unknown tool is a protocol error', async (t) => {
    const ws = fixture(t);
    const c = await connect(t, ws);
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ['memory_search', { query: '' }, /query: query must not be empty/],
      ['memory_search', { query: 'x', k: 99 }, /k: Too big/],
      [
        'memory_search',
        { query: 'x', filters: { since: 'yesterday-ish' } },
        /filters\.since "yesterday-ish" is not a time/,
      ],
      ['memory_get', {}, /give either id or path/],
      ['memory_get', { id: 'NOTE-20990101-nothing' }, /no entry with id NOTE-20990101-nothing/],
      ['memory_get', { path: '../../etc/passwd' }, /is not a Markdown file of the workspace/],
      ['memory_get', { path: 'memory/2026-11-20.md', lines: '9-3' }, /is not a line range/],
      ['memory_context', { budget: 10 }, /budget: Too small/],
      ['memory_context', { budget: 300_000 }, /budget: Too big/],
      ['memory_search', { query: 'x', filters: { kind: 'opinion' } }, /filters\.kind: Invalid option/],
      ['memory_remember', { text: 'x', kind: 'opinion' }, /kind: Invalid option/],
      [
        'memory_remember',
        { text: 'x', key: 'shop db' },
        /^memory_remember failed: key "shop db" is not a typed key such as /,
      ],
      [
        'memory_remember',
        { text: 'x', scope: 'project:a\nb' },
        /^memory_remember failed: scope "project:a\\nb" is not global, project:<name> or lang:<name>$/,
      ],
      ['memory_trace', { id: 42 }, /id: Invalid input: expected string/],
      [
        'memory_remember',
        { text: 'Deploys happen on Tuesdays', title: '🎉' },
        /^memory_remember failed: the title "🎉" has no letters or digits/,
      ],
      [
        'memory_remember',
        { text: '+++' },
        /^memory_remember failed: nothing to remember: the text has no letters or digits/,
      ],
    ];
    for (const [name, args, message] of cases) {
      const r = await call(c, name, args);
      assert.equal(r.isError, true, `${name} ${JSON.stringify(args)}`);
      assert.match(r.content[0]!.text!, message);
      assert.doesNotMatch(r.content[0]!.text!, /(^|[\s"'`(])--[a-z]/, "names the tool's parameters, never a CLI flag");
    }
    await assert.rejects(
      c.callTool({ name: 'memory_delete', arguments: {} }),
      (err: unknown) =>
        err instanceof McpError &&
        err.code === ErrorCode.MethodNotFound &&
        /unknown tool "memory_delete"/.test(err.message),
    );
  });

  test('a line that is not JSON gets a Parse error, JSON that is no JSON-RPC message an Invalid Request; the requests after them are served', async (t) => {
    const ws = fixture(t);
    const child = spawn(process.execPath, [BIN, '-C', ws, '--now', NOW, 'mcp'], {
      env: childEnv(),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const done = finished(child);
    const replies: Array<Record<string, any>> = [];
    let pending = '';
    const answered = new Promise<void>((resolve) => {
      child.on('close', () => resolve());
      child.stdout.on('data', (d: Buffer) => {
        pending += d.toString('utf8');
        for (let i; (i = pending.indexOf('\n')) >= 0; pending = pending.slice(i + 1))
          replies.push(JSON.parse(pending.slice(0, i)));
        if (replies.some((r) => r.id === 2)) resolve();
      });
    });
    const request = (id: number, method: string, params: object) =>
      JSON.stringify({ jsonrpc: '2.0', id, method, params });
    child.stdin.write(
      [
        'this is not json {',
        request(1, 'initialize', {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 't', version: '1' },
        }),
        '42',
        JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
        request(2, 'tools/list', {}),
      ].join('\n') + '\n',
    );
    await answered;
    child.stdin.end();
    const r = await done;
    assert.equal(r.code, 0, r.stderr);
    // Replies need not come in order (a handler may finish after a later line is read).
    assert.deepEqual(
      replies.filter((x) => x.error),
      [
        { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } },
        { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request' } },
      ],
    );
    assert.deepEqual(
      replies
        .filter((x) => !x.error)
        .map((x) => x.id)
        .sort(),
      [1, 2],
    );
    assert.equal(replies.find((x) => x.id === 1)!.result.serverInfo.name, 'memfold');
    assert.equal(replies.find((x) => x.id === 2)!.result.tools.length, 7);
    assert.match(r.stderr, /^warning: mcp: a line on stdin is not JSON: answered -32700 Parse error$/m);
    assert.match(
      r.stderr,
      /^warning: mcp: a line on stdin is not a JSON-RPC message: answered -32600 Invalid Request$/m,
    );
  });

  test('stdin closing right after the requests: each is answered before the server exits', async (t) => {
    const ws = fixture(t);
    const child = spawn(process.execPath, [BIN, '-C', ws, '--now', NOW, 'mcp'], {
      env: childEnv(),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const done = finished(child);
    const request = (id: number, method: string, params: object) =>
      JSON.stringify({ jsonrpc: '2.0', id, method, params });
    child.stdin.end(
      [
        request(1, 'initialize', {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 't', version: '1' },
        }),
        JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
        request(6, 'tools/call', { name: 'memory_remember', arguments: { text: 'Use pnpm always' } }),
        request(11, 'tools/call', { name: 'memory_evidence', arguments: { id: 'NOTE-20261122-nothing' } }),
      ].join('\n') + '\n',
    );
    const r = await done;
    assert.equal(r.code, 0, r.stderr);
    const replies = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, any>);
    assert.deepEqual(
      replies.map((x) => x.id).sort((a, b) => a - b),
      [1, 6, 11],
    );
    assert.equal(
      JSON.parse(replies.find((x) => x.id === 6)!.result.content[0].text).id,
      'NOTE-20261122-use-pnpm-always',
    );
    assert.match(replies.find((x) => x.id === 11)!.result.content[0].text, /^memory_evidence failed: /);
    assert.match(readFileSync(join(ws, 'memory/2026-11-22.md'), 'utf8'), /Use pnpm always/);
  });

  test('protocol nits: tools/call without a name is -32602 in one line, a 2 MB query or scope is refused and not echoed, an empty memory_evidence says what to give, a last request without a newline is answered', async (t) => {
    const ws = fixture(t);
    const child = spawn(process.execPath, [BIN, '-C', ws, '--now', NOW, 'mcp'], {
      env: childEnv(),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const done = finished(child);
    const request = (id: number, method: string, params: object) =>
      JSON.stringify({ jsonrpc: '2.0', id, method, params });
    const huge = 'deploy '.repeat(300_000); // about 2 MB
    child.stdin.end(
      [
        request(1, 'initialize', {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 't', version: '1' },
        }),
        JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
        request(2, 'tools/call', { arguments: { query: 'deploy' } }),
        request(3, 'tools/call', { name: 'memory_search', arguments: { query: huge } }),
        request(4, 'tools/call', { name: 'memory_context', arguments: { scope: huge } }),
        request(5, 'tools/call', { name: 'memory_evidence', arguments: {} }),
        request(6, 'tools/list', {}),
      ].join('\n'),
    ); // no newline after the last request
    const r = await done;
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.stdout.length < 20_000, `nothing echoed whole (${r.stdout.length} bytes out)`);
    const replies = new Map(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, any>)
        .map((x) => [x.id, x]),
    );
    assert.deepEqual([...replies.keys()].sort(), [1, 2, 3, 4, 5, 6]);
    assert.equal(replies.get(2)!.error.code, -32602);
    assert.match(
      replies.get(2)!.error.message,
      /^tools\/call has no params\.name: give the tool to call \(memory_search, /,
    );
    assert.doesNotMatch(replies.get(2)!.error.message, /\n/);
    for (const id of [3, 4]) {
      assert.equal(replies.get(id)!.result.isError, true);
      assert.match(replies.get(id)!.result.content[0].text, /Too big: expected string to have <=20000 characters/);
    }
    assert.equal(replies.get(5)!.result.isError, true);
    assert.match(replies.get(5)!.result.content[0].text, /give id \(an entry id, for its cited turns\) or query/);
    assert.doesNotMatch(replies.get(5)!.result.content[0].text, /not both/);
    assert.equal(replies.get(6)!.result.tools.length, 7, 'the last request, with no newline, is answered');
  });

  test('memory_evidence gives the same turns as mem source --json', async (t) => {
    const { ws } = exampleWorkspace(t);
    assert.equal((await mem(['-C', ws, 'microsync', '--since', 'all', '--now', NOW])).code, 0);
    const c = await connect(t, ws);
    const id = 'RULE-20261120-cap-uploads-at-25-mb';
    const ev = ok(await call(c, 'memory_evidence', { id, context: 1 }));
    assert.deepEqual(
      ev.turns.filter((x: { cited: boolean }) => x.cited).map((x: { index: number }) => x.index),
      [12, 13],
    );
    assert.deepEqual(ev, JSON.parse((await mem(['-C', ws, '--json', 'source', id, '--context', '1'])).stdout));
    const missing = await call(c, 'memory_evidence', { id: 'NOTE-20261122-nothing' });
    assert.ok(missing.isError);
  });
});
