/**
 * Hybrid search never gets worse than lexical with a poor embedding model (issue 32): the labelled
 * set of test/fixtures/search/quality indexed lexically, then with two poor models served over the
 * OpenAI wire format on 127.0.0.1 (test/helpers/openai-server.ts) — vectors unrelated to the words
 * (sha256 of the text) and hashed bags of words that know no synonyms — and searched in process
 * (runIndex and runSearch, with the CLI's vector ranker). Equal-weight reciprocal-rank fusion lost
 * many queries' answers from the top 5 with either; fusion.ts must not lose more than one.
 */
import assert from 'node:assert/strict';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../src/config/load.js';
import { vectorRanker } from '../src/search/embed/embed-query.js';
import { runIndex, runSearch } from '../src/search/index.js';
import { editConfig, tempDir } from './helpers/cli.js';
import { startOpenAIServer } from './helpers/openai-server.js';
import { bagOfWords } from './helpers/embedders.js';

test('hybrid search with a poor embedder (random vectors, hashed bags of words) keeps lexical recall@5', async (t) => {
  const dir = join(import.meta.dirname, 'fixtures', 'search', 'quality');
  const ws = join(tempDir(t, 'memfold-fusion-'), 'ws');
  cpSync(join(dir, 'workspace'), ws, { recursive: true });
  const labelled = JSON.parse(readFileSync(join(dir, 'queries.json'), 'utf8')) as { q: string; id: string }[];
  const llm = await startOpenAIServer();
  t.after(() => llm.close());

  /** Per query, the ids of the top 5 (with the vector ranker when embeddings are configured). */
  const top5 = async (): Promise<string[][]> => {
    const loaded = loadConfig(ws);
    await runIndex(ws, loaded);
    const vectors = loaded.config.embedding ? vectorRanker(ws, loaded.config.embedding) : undefined;
    const out: string[][] = [];
    for (const { q } of labelled) {
      const { response, notices } = await runSearch({
        workspace: ws,
        query: q,
        k: 5,
        deep: true,
        filters: {},
        today: '2026-11-22',
        extraPaths: loaded.config.extraPaths,
        search: loaded.config.search,
        vectors,
      });
      assert.ok(!notices.some((n) => /embeddings unavailable/.test(n)), notices.join('\n'));
      if (vectors)
        assert.ok(
          response.results.some((r) => r.scores.vector !== null),
          `the vector ranking took part for "${q}"`,
        );
      out.push(response.results.map((r) => r.id ?? `${r.path}:${r.startLine}`));
    }
    return out;
  };
  const found = (tops: string[][]) => labelled.filter(({ id }, i) => tops[i]!.includes(id)).length;

  const lexical = await top5();
  const lexicalFound = found(lexical);
  for (const [model, embed] of [
    ['random', undefined],
    ['bag-of-words', bagOfWords],
  ] as const) {
    if (embed) llm.embeddings.handler = (text, dims) => embed(text, dims);
    editConfig(ws, (cfg) => {
      cfg.embedding = { baseURL: llm.url, model, dimensions: 64 };
    });
    const hybrid = await top5();
    // Within one query of lexical (1.5 points of recall@5 on 68 queries).
    assert.ok(
      found(hybrid) >= lexicalFound - 1,
      `${model}: recall@5 ${found(hybrid)}/${labelled.length}, lexical ${lexicalFound}`,
    );
    // Each query's lexical top hit stays in the top 3.
    const demoted = labelled
      .filter((_, i) => lexical[i]![0] && !hybrid[i]!.slice(0, 3).includes(lexical[i]![0]!))
      .map((x) => x.q);
    assert.deepEqual(demoted, [], `${model}: lexical top hits pushed below the top 3`);
  }
});
