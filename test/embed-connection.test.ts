/**
 * The embedding client's connections (src/search/embed/embed-http.ts) against a real OpenAI-compatible
 * server on 127.0.0.1 whose idle connections stay open a minute: a one-shot `mem search` closes
 * its own and loads no fetch (undici), the batches of `mem index` share one kept connection and
 * still let the process end; a dropped connection, an HTTP 500, a kept socket the server closed
 * meanwhile, a hung endpoint and a 307 each end as before (one retry where allowed, one-line errors).
 * And the vector ranking's cut (embed-query.ts) against a plain sort.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { editConfig, mem, tempDir } from './helpers/cli.js';
import { loadRecorder } from './helpers/loaded.js';
import { embeddingReply, startOpenAIServer } from './helpers/openai-server.js';
import { ids, index, NOW, search, searchWorkspace } from './search-helpers.js';
import { embedBatch, EmbeddingError } from '../src/search/embed/embed-client.js';
import { topByScore } from '../src/search/embed/embed-query.js';

const TOP = 'RULE-20261121-every-migration-needs-a-rollback-script';

test(
  'mem index batches share one kept connection and the process still ends; a cold mem search closes its own, loads no fetch, and falls back to lexical in one line when the connection drops',
  { timeout: 50_000 },
  async (t) => {
    const llm = await startOpenAIServer({ keepAliveTimeoutMs: 60_000 });
    t.after(() => llm.close());
    const ws = searchWorkspace(t);
    editConfig(ws, (cfg) => {
      cfg.embedding = { baseURL: llm.url, model: 'test-embed', dimensions: 16, batchSize: 2 };
    });
    // A kept socket that held the process would hold it for the server's minute: past this test's timeout.
    const first = await index(ws);
    const batches = llm.embeddings.requests;
    // The chunks, then the model check's titles (embed-check.ts), each in batches of 2.
    assert.equal(
      batches.length,
      Math.ceil(first.embeddings.computed / 2) + Math.ceil(first.embeddings.check.queries / 2),
      'batches of 2',
    );
    assert.ok(batches.length >= 3, `${batches.length} batches`);
    assert.deepEqual(
      [...new Set(batches.map((r) => r.connection))],
      [batches[0]!.connection],
      'one connection for every batch',
    );
    assert.ok(batches.every((r) => r.headers.connection === 'keep-alive'));

    const rec = loadRecorder(tempDir(t, 'memfold-embed-hook-'));
    const r = await mem(['-C', ws, '--json', '--now', NOW, 'search', 'rollback script'], { env: rec.env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '');
    const res = JSON.parse(r.stdout) as { results: { id: string; scores: { vector: number | null } }[] };
    assert.equal(res.results[0]!.id, TOP);
    assert.ok(
      res.results.some((x) => typeof x.scores.vector === 'number'),
      'the query was embedded and fused',
    );
    const query = llm.embeddings.requests.slice(batches.length);
    assert.equal(query.length, 1);
    assert.equal(query[0]!.headers.connection, 'close', 'a one-shot search keeps no connection');
    assert.notEqual(query[0]!.connection, batches[0]!.connection);
    const loaded = rec.take();
    assert.match(loaded, /NativeModule _http_client/, 'node:http embeds the query');
    assert.doesNotMatch(loaded, /undici/, 'fetch is not loaded');

    llm.embeddings.enqueue(embeddingReply.hangUp());
    const dropped = await search(ws, 'rollback script');
    assert.match(
      dropped.stderr,
      /^warning: embeddings unavailable \(http:\/\/127\.0\.0\.1:\d+\/v1: socket hang up\); lexical results only\n$/,
    );
    assert.equal(ids(dropped)[0], TOP);
  },
);

test('embedBatch: a 500 then a 200 is retried once; a dropped connection too (on a new one); without retry each is one line', async (t) => {
  const llm = await startOpenAIServer();
  t.after(() => llm.close());
  const cfg = { baseURL: llm.url, model: 'test-embed', dimensions: 16, batchSize: 8, interactiveTimeoutMs: 3000 };
  const oneLine = (re: RegExp) => (err: unknown) =>
    err instanceof EmbeddingError && re.test(err.message) && !err.message.includes('\n');

  llm.embeddings.enqueue(embeddingReply.status(500));
  assert.equal((await embedBatch(cfg, ['a', 'b'])).length, 2);
  assert.equal(llm.embeddings.requests.length, 2);
  llm.embeddings.enqueue(embeddingReply.status(503), embeddingReply.status(500));
  await assert.rejects(
    embedBatch(cfg, ['a']),
    oneLine(/^http:\/\/127\.0\.0\.1:\d+\/v1: HTTP 500 \{"error":\{"message":"scripted HTTP 500"/),
  );
  llm.embeddings.enqueue(embeddingReply.status(500));
  await assert.rejects(embedBatch(cfg, ['a'], { retry: false }), oneLine(/: HTTP 500 /));
  assert.equal(llm.embeddings.requests.length, 5);

  llm.embeddings.enqueue(embeddingReply.hangUp());
  const before = llm.embeddings.requests.length;
  assert.equal((await embedBatch(cfg, ['a'])).length, 1);
  const [dropped, again] = llm.embeddings.requests.slice(before);
  assert.notEqual(dropped!.connection, again!.connection);
  llm.embeddings.enqueue(embeddingReply.hangUp());
  await assert.rejects(
    embedBatch(cfg, ['a'], { retry: false }),
    oneLine(/^http:\/\/127\.0\.0\.1:\d+\/v1: socket hang up$/),
  );
});

test('embedBatch: a kept socket the server closed meanwhile is sent again on a new one, even with no retry; a hung endpoint ends at the timeout', async (t) => {
  const llm = await startOpenAIServer({ keepAliveTimeoutMs: 60_000 });
  t.after(() => llm.close());
  const cfg = { baseURL: llm.url, model: 'test-embed', dimensions: 16, batchSize: 8, interactiveTimeoutMs: 3000 };
  await embedBatch(cfg, ['a'], { keepAlive: true, retry: false });
  // The server drops the kept connection as the next request arrives on it: nothing was answered.
  llm.embeddings.enqueue(embeddingReply.hangUp());
  assert.equal((await embedBatch(cfg, ['b'], { keepAlive: true, retry: false })).length, 1);
  const [a, b, c] = llm.embeddings.requests.map((r) => r.connection);
  assert.equal(b, a, 'the second call went over the kept connection');
  assert.notEqual(c, a, 'and was sent again on a new one');

  llm.embeddings.enqueue(embeddingReply.delay(60_000));
  const started = performance.now();
  await assert.rejects(
    embedBatch(cfg, ['x'], { timeoutMs: 300, retry: false }),
    (err: unknown) => err instanceof EmbeddingError && /: no reply within 300 ms$/.test(err.message),
  );
  assert.ok(performance.now() - started < 10_000);
});

test('embedBatch follows a 307 with the same POST, as fetch did', async (t) => {
  const llm = await startOpenAIServer();
  t.after(() => llm.close());
  const moved = createServer((req, res) =>
    req.resume().on('end', () => res.writeHead(307, { location: `${llm.url}/embeddings` }).end()),
  );
  await new Promise<void>((resolve) => moved.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => moved.close(() => resolve())));
  const cfg = {
    baseURL: `http://127.0.0.1:${(moved.address() as AddressInfo).port}/v1`,
    model: 'test-embed',
    dimensions: 16,
    batchSize: 8,
    interactiveTimeoutMs: 3000,
  };
  assert.equal((await embedBatch(cfg, ['followed'])).length, 1);
  assert.deepEqual(
    llm.embeddings.requests.map((r) => r.body.input),
    [['followed']],
  );
});

test('topByScore picks what a stable sort of every score then a cut gives, ties and all', () => {
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (const [n, limit, levels] of [
    [0, 5, 3],
    [4, 10, 2],
    [500, 100, 7],
    [500, 100, 1000],
    [2000, 1, 3],
    [300, 300, 5],
  ] as const) {
    const scores = Float64Array.from({ length: n }, () => Math.floor(rand() * levels) / levels - 0.5);
    const expected = [...scores.keys()].sort((a, b) => scores[b]! - scores[a]!).slice(0, limit);
    assert.deepEqual(topByScore(scores, n, limit), expected, `n ${n}, limit ${limit}, ${levels} levels`);
  }
});
