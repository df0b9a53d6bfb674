/**
 * `archive.embed`: transcript windows embedded through a real OpenAI-compatible server on 127.0.0.1,
 * only redacted text sent, the query's vector fused with BM25, and lexical ranking whenever the
 * provider fails or --lexical-only is given.
 */
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { editConfig, exampleWorkspace, mem } from './helpers/cli.js';
import { embeddingReply, hashVector, startOpenAIServer } from './helpers/openai-server.js';

const DIMS = 8;
/** One concept, one axis: "weekend" in a window and "holidays" in a query meet; anything else is noise. */
const concept = (text: string, dims: number) =>
  /weekend|holidays/i.test(text)
    ? [1, ...Array<number>(dims - 1).fill(0)]
    : hashVector(text, dims).map((x, i) => (i === 0 ? 0 : x));

interface Hits {
  results: Array<{ snippet: string; cosine: number | null; score: number; sessionId: string; turns: string }>;
}

test('archive.embed: redacted windows embedded, the query vector fused with BM25, lexical on failure', async (t) => {
  const llm = await startOpenAIServer();
  t.after(() => llm.close());
  llm.embeddings.handler = concept;
  const { ws, transcripts } = exampleWorkspace(t);
  editConfig(ws, (cfg) => {
    cfg.embedding = { baseURL: llm.url, model: 'test-embed', dimensions: DIMS, batchSize: 4 };
    cfg.archive = { embed: true };
  });
  const built = await mem(['-C', ws, '--json', 'archive']);
  assert.equal(built.code, 0, built.stderr);
  const u = JSON.parse(built.stdout) as { embedded: number; totalDocs: number };
  assert.equal(u.embedded, u.totalDocs, 'every window got a vector');
  const sent = llm.embeddings.requests.flatMap((r) => r.body.input as string[]).join('\n');
  assert.ok(!sent.includes('sk-proj-') && !sent.includes('AKIA5A4W'), 'no secret reaches the embedding endpoint');
  assert.match(sent, /\[REDACTED:openai-key\]/);

  const search = async (...args: string[]) => {
    const r = await mem(['-C', ws, '--json', 'search', '--archive', ...args]);
    assert.equal(r.code, 0, r.stderr);
    return { ...(JSON.parse(r.stdout) as Hits), stderr: r.stderr };
  };
  // "holidays" is in no transcript: only the vector finds the weekend window.
  const semantic = await search('holidays', '-k', '1');
  const weekend = (await search('weekend', '--lexical-only', '-k', '1')).results[0]!;
  assert.equal(semantic.results.length, 1);
  assert.deepEqual(
    [semantic.results[0]!.sessionId, semantic.results[0]!.turns],
    [weekend.sessionId, weekend.turns],
    'the window that says "weekend"',
  );
  assert.ok(semantic.results[0]!.cosine! > 0.99);
  assert.equal(weekend.cosine, null, '--lexical-only embeds no query');
  const lexical = await search('holidays', '--lexical-only');
  assert.ok(
    !lexical.results.some((h) => h.sessionId === weekend.sessionId && h.turns === weekend.turns),
    'BM25 alone does not find it',
  );

  const calls = llm.embeddings.requests.length;
  llm.embeddings.enqueue(embeddingReply.status(500, { times: 1 }));
  const degraded = await search('weekend');
  assert.match(degraded.stderr, /embeddings unavailable .*archive results ranked lexically only/);
  assert.ok(degraded.results.length > 0 && degraded.results.every((h) => h.cosine === null));
  assert.equal(
    llm.embeddings.requests.length,
    calls + 1,
    'the query was tried once (someone is waiting), never a window again',
  );
  // A secret in the query is not sent either.
  await search('the key AKIA5A4WCHBDEVSPP0L9 rotation');
  const query = llm.embeddings.requests.at(-1)!.body.input as string[];
  assert.ok(!query.join('').includes('AKIA5A4W'), 'the query is redacted before it is embedded');

  // Small updates are compacted: the merged segment carries each window's own row.
  const file = join(transcripts, 'jsonl', 'ledgerline-standup.jsonl');
  let compacted = 0;
  for (let i = 0; i < 9; i++) {
    appendFileSync(
      file,
      JSON.stringify({
        role: 'user',
        content: `Status note ${i}: the pipeline is green.`,
        timestamp: `2026-11-21T11:0${i}:00Z`,
        session_id: 'standup-2026-11-21',
      }) + '\n',
    );
    const r = await mem(['-C', ws, '--json', 'archive']);
    assert.equal(r.code, 0, r.stderr);
    compacted += (JSON.parse(r.stdout) as { compacted: number }).compacted;
  }
  assert.ok(compacted > 0, 'the small segments were merged');
  const after = await search('holidays', '-k', '1');
  assert.doesNotMatch(after.stderr, /damaged/);
  assert.deepEqual(
    [after.results[0]!.sessionId, after.results[0]!.turns, after.results[0]!.cosine! > 0.99],
    [weekend.sessionId, weekend.turns, true],
  );

  // An older memfold's archive (state version 1, `.docs.jsonl` beside `.vec`): its rebuild reuses every
  // window's row by its text, no embedding call for a window embedded before.
  const dir = join(ws, '.mem', 'archive');
  const v2 = JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')) as { segments: Array<{ name: string }> };
  for (const s of v2.segments) renameSync(join(dir, `${s.name}.docs`), join(dir, `${s.name}.docs.jsonl`));
  writeFileSync(join(dir, 'state.json'), JSON.stringify({ ...v2, version: 1 }));
  const before = llm.embeddings.requests.length;
  const migrated = await mem(['-C', ws, '--json', 'archive']);
  assert.equal(migrated.code, 0, migrated.stderr);
  assert.match(migrated.stderr, /written by an older memfold; it was rebuilt/);
  const m = JSON.parse(migrated.stdout) as { embedded: number; totalDocs: number };
  assert.equal(m.embedded, m.totalDocs, 'every window has its vector');
  // Only windows the rebuild cuts anew (the notes appended one by one above now share windows) are sent.
  const sentAgain = llm.embeddings.requests.slice(before).flatMap((r) => r.body.input as string[]);
  assert.ok(sentAgain.length < m.totalDocs && sentAgain.every((x) => /Status note/.test(x)), sentAgain.join('\n'));
  assert.equal((await search('holidays', '-k', '1')).results[0]!.cosine! > 0.99, true);

  // A rebuild (in its worker thread) embeds every window again.
  const rebuilt = await mem(['-C', ws, '--json', 'archive', '--rebuild']);
  assert.equal(rebuilt.code, 0, rebuilt.stderr);
  const r = JSON.parse(rebuilt.stdout) as { embedded: number; totalDocs: number; warnings: string[] };
  assert.deepEqual([r.embedded, r.warnings], [r.totalDocs, []]);
  // Windowed afresh: the status notes appended above now share the weekend window.
  const again = await search('holidays', '-k', '1');
  const weekendNow = (await search('weekend', '--lexical-only', '-k', '1')).results[0]!;
  assert.deepEqual(
    [again.results[0]!.sessionId, again.results[0]!.turns, again.results[0]!.cosine! > 0.99],
    [weekendNow.sessionId, weekendNow.turns, true],
  );
});

test('archive.embed without an embedding provider: a warning, and the archive stays lexical', async (t) => {
  const { ws } = exampleWorkspace(t);
  editConfig(ws, (cfg) => {
    cfg.archive = { embed: true };
  });
  const r = await mem(['-C', ws, '--json', 'archive']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /archive\.embed is set but no "embedding" provider is configured/);
  assert.equal((JSON.parse(r.stdout) as { embedded: number }).embedded, 0);
});
