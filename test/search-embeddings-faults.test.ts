/**
 * Faults on the embedding path of `mem index` / `mem search` against a real OpenAI-compatible HTTP
 * server on 127.0.0.1 (test/helpers/openai-server.ts): bad replies, a torn cache, a hung endpoint,
 * MCP search, and secrets in the text sent.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BIN, childEnv, editConfig, mem, tempDir } from './helpers/cli.js';
import { embeddingReply, startOpenAIServer } from './helpers/openai-server.js';
import { SECRET_SAMPLES } from './fixtures/secrets/corpus.js';
import { ids, index, NOW, search, searchWorkspace, total } from './search-helpers.js';

const item = (index: number, embedding: string) => `{"object":"embedding","index":${index},"embedding":${embedding}}`;
const list = (...items: string[]) => `{"object":"list","data":[${items.join(',')}],"model":"test-embed"}`;
const QUERIES = ['rollback script', 'postgres', 'deploy on Friday'];

/** The workspace's answers to QUERIES, ids and every score, to compare two indexes. */
async function answers(ws: string): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const q of QUERIES)
    out.push((await search(ws, q, '--deep')).results.map((r) => [r.id ?? `${r.path}:${r.startLine}`, r.scores]));
  return out;
}

/** The same Markdown indexed from nothing (no `.mem/`). */
async function fresh(t: { after(fn: () => void): void }, ws: string): Promise<unknown[]> {
  const copy = join(tempDir(t, 'memfold-fresh-'), 'ws');
  cpSync(ws, copy, { recursive: true, filter: (src) => !src.includes(`${join(ws, '.mem')}`) });
  await index(copy);
  return answers(copy);
}

const ok16 = `[${Array.from({ length: 16 }, (_, i) => (i + 1) / 16).join(',')}]`;

test('embeddings: a bad reply (null, Infinity, duplicate or out-of-range index, zero vector) is refused before it is cached', async (t) => {
  const llm = await startOpenAIServer();
  t.after(() => llm.close());
  const ws = searchWorkspace(t);
  editConfig(ws, (cfg) => {
    cfg.embedding = { baseURL: llm.url, model: 'test-embed', dimensions: 16, batchSize: 2 };
  });
  const bad: [string, RegExp][] = [
    [
      list(item(0, `[null,${ok16.slice(1, -1).split(',').slice(1).join(',')}]`), item(1, ok16)),
      /embedding 0 holds a value that is not a number/,
    ],
    [
      list(item(0, `[1e400,${ok16.slice(1, -1).split(',').slice(1).join(',')}]`), item(1, ok16)),
      /embedding 0 holds a value that is not finite/,
    ],
    [list(item(0, ok16), item(0, ok16)), /index 0 given twice/],
    [list(item(0, ok16), item(5, ok16)), /index 5 is not 0 to 1/],
    [list(item(0, ok16), item(1, `[${Array(16).fill(0).join(',')}]`)), /embedding 1 is all zeros/],
    [list(item(0, ok16), item(1, '[1,2,3]')), /embedding 1 has 3 dimensions, expected 16/],
  ];
  for (const [body, why] of bad) {
    llm.embeddings.enqueue(embeddingReply.raw(body));
    const r = await index(ws);
    assert.match(r.embeddings.failed, why);
    assert.match(r.stderr, /embeddings: .*bad embedding reply.*lexical ranking/);
    assert.equal(r.embeddings.computed, 0);
    assert.ok(
      !existsSync(join(ws, '.mem', 'embeddings')) || readdirSync(join(ws, '.mem', 'embeddings')).length === 0,
      'nothing cached',
    );
  }
  // A query embedding that is bad: lexical results with the usual warning.
  const healed = await index(ws);
  assert.equal(healed.embeddings.failed, null);
  llm.embeddings.enqueue(embeddingReply.raw(list(item(3, ok16))));
  const res = await search(ws, 'rollback script');
  assert.match(
    res.stderr,
    /embeddings unavailable \(.*bad embedding reply \(index 3 is not 0 to 0\)\); lexical results only/,
  );
  assert.equal(ids(res)[0], 'RULE-20261121-every-migration-needs-a-rollback-script');
});

test('embeddings: secrets in memory files and in the query are redacted before they are sent', async (t) => {
  const llm = await startOpenAIServer();
  t.after(() => llm.close());
  const ws = searchWorkspace(t);
  editConfig(ws, (cfg) => {
    cfg.embedding = { baseURL: llm.url, model: 'test-embed', dimensions: 16 };
  });
  const aws = 'AKIAIOSFODNN7EXAMPLE';
  const ghp = SECRET_SAMPLES.find((s) => s.kind === 'github-pat')!.secret;
  mkdirSync(join(ws, 'memory', 'projects'), { recursive: true });
  writeFileSync(
    join(ws, 'memory', 'projects', 'infra.md'),
    `# Infra\n\nThe deploy bot uses aws_access_key_id = ${aws} and pushes with https://${ghp}@github.com/acme/infra.git\n`,
  );
  await index(ws);
  const res = await search(ws, `deploy bot ${ghp}`);
  assert.equal(typeof res.results[0]!.scores.vector, 'number');
  const sent = llm.embeddings.requests.map((r) => r.raw).join('\n');
  assert.match(sent, /The deploy bot uses .*\[REDACTED:aws-access-key-id\]/, 'the file was embedded, redacted');
  assert.match(sent, /"deploy bot \[REDACTED:github-pat\]"/, 'the query was embedded, redacted');
  for (const secret of [aws, ghp])
    for (let i = 0; i + 8 <= secret.length; i++)
      assert.ok(!sent.includes(secret.slice(i, i + 8)), `a piece of ${secret} was sent`);
});

test('embeddings: MCP memory_search ranks with the query embedding, as mem search --json does', async (t) => {
  const llm = await startOpenAIServer();
  t.after(() => llm.close());
  const ws = searchWorkspace(t);
  editConfig(ws, (cfg) => {
    cfg.embedding = { baseURL: llm.url, model: 'test-embed', dimensions: 16 };
  });
  await index(ws);
  const cli = await search(ws, 'rollback script');
  const before = llm.embeddings.requests.length;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, '-C', ws, '--now', NOW, 'mcp'],
    env: childEnv() as Record<string, string>,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'memfold-test', version: '1.0.0' });
  await client.connect(transport);
  t.after(() => client.close());
  const r = (await client.callTool({ name: 'memory_search', arguments: { query: 'rollback script' } })) as {
    isError?: boolean;
    structuredContent?: Record<string, any>;
  };
  assert.ok(!r.isError);
  assert.equal(llm.embeddings.requests.length, before + 1, 'one query embedding');
  const results = r.structuredContent!.results as Record<string, any>[];
  assert.equal(typeof results[0]!.scores.vector, 'number');
  assert.deepEqual(
    results.map((x) => [x.id, x.scores]),
    cli.results.map((x) => [x.id, x.scores]),
  );
  // A failing provider: lexical results, and the CLI's warning as `warnings`.
  llm.embeddings.enqueue(embeddingReply.status(500, { times: 2 }));
  const degraded = (await client.callTool({ name: 'memory_search', arguments: { query: 'rollback script' } })) as {
    structuredContent?: Record<string, any>;
  };
  assert.match(degraded.structuredContent!.warnings[0], /embeddings unavailable .*lexical results only/);
  assert.equal(degraded.structuredContent!.results[0].scores.vector, null);
});

test('embeddings: a torn or damaged cache is re-embedded, and ranks as a fresh index does', async (t) => {
  const llm = await startOpenAIServer();
  t.after(() => llm.close());
  const ws = searchWorkspace(t);
  editConfig(ws, (cfg) => {
    cfg.embedding = { baseURL: llm.url, model: 'test-embed', dimensions: 16, batchSize: 5 };
  });
  const dir = join(ws, '.mem', 'embeddings');
  const first = await index(ws);
  const [json] = readdirSync(dir).filter((f) => f.endsWith('.json'));
  const jsonFile = join(dir, json!);
  const vecFile = jsonFile.replace(/\.json$/, '.vec');
  const [oldJson, oldVec] = [readFileSync(jsonFile), readFileSync(vecFile)];
  const file = join(ws, 'memory', '2026-11-21.md');
  writeFileSync(
    file,
    readFileSync(file, 'utf8').replace(
      'a failed deploy on Friday could not be undone',
      'a failed deploy on Friday took six hours to undo',
    ),
  );
  assert.equal((await index(ws)).embeddings.computed, 1);

  // A crash between the two writes: the new .vec, the old .json. The extra row is ignored, the
  // chunk that owned it is embedded again, and nothing is said: nothing was lost.
  writeFileSync(jsonFile, oldJson);
  // Before that, search ranks the chunk whose row is past the keys lexically only (no NaN cosine).
  for (const r of (await search(ws, 'deploy on Friday six hours')).results)
    assert.equal(r.scores.vectorRank === null, r.scores.vector === null, JSON.stringify(r.scores));
  const torn = await index(ws);
  assert.equal(torn.embeddings.computed, 1);
  assert.doesNotMatch(torn.stderr, /embedding cache/);
  assert.equal(typeof (await search(ws, 'rollback script')).results[0]!.scores.vector, 'number');
  assert.deepEqual(await answers(ws), await fresh(t, ws));

  // The other way round (an older .vec than its .json), or a .json that is not JSON: the cache is
  // dropped with one warning, the row maps with it, and every chunk is embedded again.
  const chunks = Number(first.tiers.warm!.chunks) + Number(first.tiers.cold!.chunks);
  for (const [damage, why] of [
    [() => writeFileSync(vecFile, oldVec.subarray(0, 64)), /\.vec has 1 of the \d+ rows \.json lists/],
    [() => writeFileSync(jsonFile, '{"dims": 16, "ke'), /\.json is not JSON/],
  ] as const) {
    damage();
    const healed = await index(ws);
    assert.match(
      healed.stderr,
      new RegExp(
        `embedding cache \\.mem/embeddings/\\w+\\.\\{json,vec\\} unusable \\(${why.source}\\): every chunk is embedded again`,
      ),
    );
    assert.equal(healed.stderr.match(/embedding cache/g)!.length, 1);
    assert.equal(healed.embeddings.computed, chunks);
    assert.deepEqual(await answers(ws), await fresh(t, ws));
  }
});

test(
  'embeddings: a hung endpoint holds mem search and a write command for interactiveTimeoutMs, not a minute',
  { timeout: 40_000 },
  async (t) => {
    const llm = await startOpenAIServer();
    t.after(() => llm.close());
    const ws = searchWorkspace(t);
    editConfig(ws, (cfg) => {
      cfg.embedding = { baseURL: llm.url, model: 'test-embed', dimensions: 16, interactiveTimeoutMs: 1_000 };
    });
    await index(ws);
    const calls = llm.embeddings.requests.length;
    llm.embeddings.enqueue(embeddingReply.delay(600_000), embeddingReply.delay(600_000));

    let started = performance.now();
    const res = await search(ws, 'rollback script');
    assert.ok(performance.now() - started < 8_000, `mem search took ${Math.round(performance.now() - started)} ms`);
    assert.match(res.stderr, /embeddings unavailable \(.*no reply within 1000 ms\); lexical results only/);
    assert.equal(ids(res)[0], 'RULE-20261121-every-migration-needs-a-rollback-script');
    assert.equal(llm.embeddings.requests.length, calls + 1, 'no retry while someone waits');

    started = performance.now();
    const r = await mem(['-C', ws, 'remember', 'Wombats dig burrows under the staging server', '--now', NOW]);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(performance.now() - started < 8_000, `mem remember took ${Math.round(performance.now() - started)} ms`);
    assert.match(
      r.stderr,
      /index: embeddings: .*no reply within \d+ ms; search uses lexical ranking for chunks without vectors/,
    );
    assert.equal(llm.embeddings.requests.length, calls + 2);

    // The lexical index was updated by remember; the next `mem index` embeds what it could not.
    const caught = await index(ws);
    assert.equal(total(caught, 'changed') + total(caught, 'added'), 0);
    assert.ok(caught.embeddings.computed >= 1);
    assert.equal(caught.embeddings.failed, null);
    assert.equal(ids(await search(ws, 'wombats burrows'))[0]?.startsWith('NOTE-'), true);
  },
);
