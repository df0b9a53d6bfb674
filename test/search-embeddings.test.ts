/**
 * The embedding path of `mem index` / `mem search` against a real OpenAI-compatible HTTP server on
 * 127.0.0.1 (test/helpers/openai-server.ts): batching, the sha256 cache, zero calls when nothing
 * changed, one input for one changed chunk, and degradation to lexical results when the provider fails.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { editConfig } from './helpers/cli.js';
import { embeddingReply, startOpenAIServer } from './helpers/openai-server.js';
import { ids, index, search, searchWorkspace } from './search-helpers.js';

const inputs = (reqs: { body: any }[]) =>
  reqs.flatMap((r) => (Array.isArray(r.body.input) ? r.body.input : [r.body.input]) as string[]);

test('embeddings: batched, cached by content, one call per changed chunk, fused with BM25, degrade to lexical', async (t) => {
  const llm = await startOpenAIServer();
  t.after(() => llm.close());
  const ws = searchWorkspace(t);
  editConfig(ws, (cfg) => {
    cfg.embedding = { baseURL: llm.url, model: 'test-embed', dimensions: 16, batchSize: 5 };
  });

  const first = await index(ws);
  const chunks = Number(first.tiers.warm!.chunks) + Number(first.tiers.cold!.chunks);
  assert.equal(first.embeddings.computed, chunks);
  assert.equal(first.embeddings.cached, 0);
  const calls1 = llm.embeddings.requests.length;
  // Then the model check: its titles in batches of batchSize too (embed-check.ts).
  assert.equal(calls1, Math.ceil(chunks / 5) + Math.ceil(first.embeddings.check.queries / 5), 'batches of batchSize');
  assert.ok(llm.embeddings.requests.every((r) => r.body.model === 'test-embed' && r.body.dimensions === 16));

  const second = await index(ws);
  assert.equal(llm.embeddings.requests.length, calls1, 'no change → zero embedding calls');
  assert.deepEqual([second.embeddings.computed, second.embeddings.cached], [0, 0]);

  // Change one entry of a file with several chunks: the file is re-chunked, only one chunk is new
  // (the others keep their docs, and so their vectors).
  const file = join(ws, 'memory', '2026-11-21.md');
  writeFileSync(
    file,
    readFileSync(file, 'utf8').replace(
      'a failed deploy on Friday could not be undone',
      'a failed deploy on Friday took six hours to undo',
    ),
  );
  const third = await index(ws);
  const after = llm.embeddings.requests.slice(calls1);
  assert.equal(after.length, 1);
  assert.equal(inputs(after).length, 1);
  assert.match(inputs(after)[0]!, /six hours to undo/);
  assert.equal(third.embeddings.computed, 1);
  assert.equal(third.embeddings.cached, 0);
  assert.ok(Number(third.tiers.warm!.chunksKept) >= 3, 'the other chunks of the file were kept');

  // Search embeds the query and fuses both rankings; the vector part is reported.
  const before = llm.embeddings.requests.length;
  const res = await search(ws, 'rollback script');
  assert.equal(llm.embeddings.requests.length, before + 1);
  assert.equal(ids(res)[0], 'RULE-20261121-every-migration-needs-a-rollback-script');
  assert.equal(typeof res.results[0]!.scores.vector, 'number');
  assert.equal(typeof res.results[0]!.scores.vectorRank, 'number');
  // A query reads `.vec` with the row count the vector map recorded, not the cache's key list.
  const keys = join(
    ws,
    '.mem',
    'embeddings',
    readdirSync(join(ws, '.mem', 'embeddings')).find((f) => f.endsWith('.json'))!,
  );
  renameSync(keys, `${keys}.away`);
  assert.equal((await search(ws, 'rollback script')).results[0]!.scores.vectorRank, res.results[0]!.scores.vectorRank);
  renameSync(`${keys}.away`, keys);

  // A failing provider: search (one try, someone is waiting) answers lexically with a warning; index
  // (two tries) succeeds with a warning.
  llm.embeddings.enqueue(embeddingReply.status(500));
  const degraded = await search(ws, 'rollback script');
  assert.match(degraded.stderr, /embeddings unavailable .*lexical results only/);
  assert.equal(ids(degraded)[0], 'RULE-20261121-every-migration-needs-a-rollback-script');
  assert.equal(degraded.results[0]!.scores.vector, null);
  writeFileSync(
    join(ws, 'memory', '2026-11-23.md'),
    '## Note: new one\n- id: NOTE-20261123-new-one\n- why: wombat facts\n',
  );
  llm.embeddings.enqueue(embeddingReply.status(500, { times: 2 }));
  const failed = await index(ws);
  assert.match(failed.embeddings.failed, /HTTP 500/);
  assert.match(failed.stderr, /embeddings: .*HTTP 500.*lexical ranking/);
  assert.equal(ids(await search(ws, 'wombat', '--lexical-only'))[0], 'NOTE-20261123-new-one');
  // The next index embeds what was missed, and only that.
  const n = llm.embeddings.requests.length;
  const healed = await index(ws);
  assert.equal(healed.embeddings.computed, 1);
  assert.equal(llm.embeddings.requests.length, n + 1);
});
