/**
 * The embedding model check (issue 32 item 3, src/search/run/embed-check.ts): the first `mem index` with a
 * model looks entries up by their own titles, by BM25 alone and by the model's vectors alone, keeps the
 * figures per model, and `mem index` and `mem status` warn when the vectors find fewer than half of
 * what BM25 finds. Two models served over the OpenAI wire format on 127.0.0.1: hashed bags of words
 * (weak, but its vectors follow the words) and sha256 vectors unrelated to the words.
 */
import assert from 'node:assert/strict';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../src/config/load.js';
import { runIndex } from '../src/search/index.js';
import { editConfig, memOk, tempDir } from './helpers/cli.js';
import { hashVector, startOpenAIServer } from './helpers/openai-server.js';
import { bagOfWords } from './helpers/embedders.js';

test('mem index checks a new embedding model once; index and status warn about one that ranks worse than BM25', async (t) => {
  const ws = join(tempDir(t, 'memfold-embed-check-'), 'ws');
  cpSync(join(import.meta.dirname, 'fixtures', 'search', 'quality', 'workspace'), ws, { recursive: true });
  const llm = await startOpenAIServer();
  t.after(() => llm.close());

  // A model whose vectors follow the words: checked, not weak.
  llm.embeddings.handler = (text, dims) => bagOfWords(text, dims);
  editConfig(ws, (cfg) => {
    cfg.embedding = { baseURL: llm.url, model: 'bag-of-words', dimensions: 128 };
  });
  const first = await runIndex(ws, loadConfig(ws));
  const check = first.embeddings?.check;
  assert.ok(check, 'the first index with a model checks it');
  assert.equal(check.model, 'bag-of-words');
  assert.ok(check.queries >= 8 && check.queries <= 32, `${check.queries} titles looked up`);
  assert.ok(check.lexical >= check.queries - 2, `BM25 finds entries by their title: ${check.lexical}/${check.queries}`);
  assert.ok(check.vector * 2 >= check.lexical, `bag-of-words vectors find ${check.vector}/${check.queries}`);
  assert.ok(!first.result.warnings.some((w) => /ranks worse/.test(w)), first.result.warnings.join('\n'));
  // The titles went out in one request (a few dozen, well under batchSize 64), after the chunks.
  const calls = llm.embeddings.requests.length;
  const again = await runIndex(ws, loadConfig(ws));
  assert.equal(again.embeddings?.check, undefined, 'the same model is not checked twice');
  assert.equal(llm.embeddings.requests.length, calls, 'nothing embedded on a second index');

  // Vectors unrelated to the words (sha256 of the text): the CLI's index and status warn.
  llm.embeddings.handler = hashVector;
  editConfig(ws, (cfg) => {
    cfg.embedding = { baseURL: llm.url, model: 'unrelated', dimensions: 64 };
  });
  const index = await memOk(['index', '-C', ws]);
  assert.match(index.stdout, /model check: its vectors find \d+ of \d+ entries by their title, BM25 \d+/);
  assert.match(index.stderr, /embedding model "unrelated" ranks worse than lexical search alone/);
  const status = await memOk(['status', '-C', ws]);
  assert.match(status.stdout, /embeddings: unrelated \(64 dimensions; its vectors find \d+ of/);
  assert.match(status.stdout, /WARN embedding model "unrelated" ranks worse than lexical search alone/);
  const json = JSON.parse((await memOk(['status', '-C', ws, '--json'])).stdout) as {
    providers: { embedding: { check: { vector: number; lexical: number } } };
  };
  assert.ok(
    json.providers.embedding.check.vector * 2 < json.providers.embedding.check.lexical,
    JSON.stringify(json.providers),
  );
});
