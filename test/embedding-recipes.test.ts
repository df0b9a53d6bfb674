/**
 * The embedder recipes of docs/embeddings.md (issue 32 item 5), as written: every configuration block
 * tagged `<!-- recipe: name dims=N host=H -->` is loaded through the real config schema and indexed
 * against a server on 127.0.0.1 speaking the OpenAI embeddings wire format (the shape Ollama, LM
 * Studio, llama.cpp and OpenAI reply in) with vectors of the stated size; the request must carry the
 * recipe's model and dimensions (and the key when the recipe names one), and the model check must
 * pass. The providers line `mem status` prints must be the page's example, figures aside.
 */
import assert from 'node:assert/strict';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../src/config/load.js';
import { runIndex } from '../src/search/index.js';
import { editConfig, memOk, ROOT, tempDir } from './helpers/cli.js';
import { startOpenAIServer } from './helpers/openai-server.js';
import { bagOfWords } from './helpers/embedders.js';

interface Recipe {
  name: string;
  dims: number;
  host: string;
  embedding: Record<string, unknown> & { baseURL: string; model: string; apiKeyEnv?: string };
}

const page = readFileSync(join(ROOT, 'docs', 'embeddings.md'), 'utf8');
const recipes: Recipe[] = [...page.matchAll(/<!-- recipe: (\S+) dims=(\d+) host=(\S+) -->\n```json\n(.+)\n```/g)].map(
  (m) => ({
    name: m[1]!,
    dims: Number(m[2]),
    host: m[3]!,
    embedding: (JSON.parse(m[4]!) as { embedding: Recipe['embedding'] }).embedding,
  }),
);

test('every embedder recipe of docs/embeddings.md indexes, sends its model and dimensions, and passes the model check', async (t) => {
  assert.deepEqual(
    recipes.map((r) => r.name),
    ['ollama-nomic', 'ollama-bge-m3', 'lmstudio', 'llama-cpp', 'openai'],
  );
  const ws = join(tempDir(t, 'memfold-recipes-'), 'ws');
  cpSync(join(import.meta.dirname, 'fixtures', 'search', 'quality', 'workspace'), ws, { recursive: true });
  const llm = await startOpenAIServer();
  t.after(() => llm.close());
  llm.embeddings.handler = (text, dims) => bagOfWords(text, dims);
  const key = 'test-key-for-the-recipe';
  // A key in the test's own environment would be sent by recipes that name none.
  const ambient = process.env.OPENAI_API_KEY;
  delete process.env.OPENAI_API_KEY;
  t.after(() => {
    if (ambient !== undefined) process.env.OPENAI_API_KEY = ambient;
  });

  for (const r of recipes) {
    const url = new URL(r.embedding.baseURL);
    assert.equal(url.host, r.host, `${r.name}: the host the page names`);
    assert.equal(url.pathname, '/v1', `${r.name}: the /v1 path of the OpenAI-compatible API`);
    assert.equal(r.embedding.dimensions, r.dims, `${r.name}: dimensions as the page says`);
    editConfig(ws, (cfg) => {
      cfg.embedding = { ...r.embedding, baseURL: llm.url };
    });
    if (r.embedding.apiKeyEnv) process.env[r.embedding.apiKeyEnv] = key;
    const before = llm.embeddings.requests.length;
    let run;
    try {
      run = await runIndex(ws, loadConfig(ws));
    } finally {
      if (r.embedding.apiKeyEnv) delete process.env[r.embedding.apiKeyEnv];
    }
    assert.deepEqual(run.result.warnings, [], r.name);
    assert.ok(
      run.embeddings && run.embeddings.computed > 0 && !run.embeddings.failed,
      `${r.name}: ${JSON.stringify(run.embeddings)}`,
    );
    const sent = llm.embeddings.requests.slice(before);
    for (const q of sent) {
      assert.equal(q.body.model, r.embedding.model, r.name);
      assert.equal(q.body.dimensions, r.dims, r.name);
      assert.equal(q.body.encoding_format, 'float', r.name);
      assert.equal(q.headers.authorization, r.embedding.apiKeyEnv ? `Bearer ${key}` : undefined, r.name);
    }
    const check = run.embeddings.check;
    assert.ok(
      check && check.dimensions === r.dims && check.vector * 2 >= check.lexical,
      `${r.name}: ${JSON.stringify(check)}`,
    );
  }

  // The page's status line, figures aside, for the first recipe.
  editConfig(ws, (cfg) => {
    cfg.embedding = { ...recipes[0]!.embedding, baseURL: llm.url };
  });
  const documented = /<!-- status-line -->\n```text\n(.+)\n```/.exec(page)![1]!;
  const shape = new RegExp(`^${documented.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\d+/g, '\\d+')}$`, 'm');
  assert.match((await memOk(['status', '-C', ws])).stdout, shape);
});
