/**
 * The search eval's measuring stick (scripts/eval-search/): the budget rule (evidence shown past the
 * first C characters of the top k does not count), the plain BM25 baseline on a case small enough to
 * check by hand, and the scorer on memfold's real `mem search --json` over a tiny folder.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { BIN, ROOT, tempDir } from './helpers/cli.js';

interface Shown {
  path: string;
  line: number;
  start: number;
  end: number;
  answers: boolean;
}
interface Hit {
  text: string;
  shown: Shown[];
}
type Evidence = { path: string; lines: [number, number] }[][];
interface Chunk {
  path: string;
  text: string;
  lineNos: (number | null)[];
  score?: number;
}
const load = async <T>(rel: string): Promise<T> => (await import(pathToFileURL(join(ROOT, rel)).href)) as T;
const score = await load<{
  evidenceRanks(hits: Hit[], evidence: Evidence, budget: number): number[];
  scoreRanks(ranks: number[]): { r1: number; r5: number; r10: number; mrr: number };
  linesShown(path: string, text: string, file: string | undefined, startLine: number): Shown[];
  answers(line: string): boolean;
}>('scripts/eval-search/score.mjs');
const bm25 = await load<{
  fileParagraphs(text: string): { line: number; text: string }[][];
  mergeParagraphs(path: string, paras: { line: number; text: string }[][], maxChars: number): Chunk[];
  bm25Index(chunks: Chunk[], tokens: (t: string) => string[]): { search(q: string, k: number): Chunk[] };
}>('scripts/eval-search/bm25.mjs');
const systems = await load<{
  memfoldHits(
    mem: string,
    ws: string,
    q: { query: string; command: string },
    k: number,
    lexicalOnly: boolean,
  ): Promise<Hit[]>;
}>('scripts/eval-search/systems.mjs');
const tok = await load<{ tokenizeFolded(t: string, stems: boolean): string[]; foldText(t: string): string }>(
  'dist/search/text/tokenize.js',
);
const tokens = (t: string): string[] => tok.tokenizeFolded(tok.foldText(t), false);

/** A hit of `n` lines of `width` characters from `path`, lines numbered from `from`. */
function hit(path: string, from: number, n: number, width: number): Hit {
  const text = Array.from({ length: n }, (_, i) => `- why: ${String(from + i).padEnd(width - 7, 'x')}`).join('\n');
  return { text, shown: score.linesShown(path, text, undefined, from) };
}

test('evidence past the first C characters of the top k does not count; bookkeeping lines never do', () => {
  // Two hits of 3,000 characters each: the second starts at character 3,001 of the reading.
  const hits = [hit('memory/a.md', 1, 30, 99), hit('memory/b.md', 10, 30, 99)];
  const first: Evidence = [[{ path: 'memory/a.md', lines: [5, 5] }]];
  const second: Evidence = [[{ path: 'memory/b.md', lines: [12, 12] }]]; // 3rd line of hit 2: characters 3200-3299
  const late: Evidence = [[{ path: 'memory/b.md', lines: [25, 39] }]]; // from line 16 of hit 2: past 4,000
  assert.deepEqual(score.evidenceRanks(hits, first, 4000), [1]);
  assert.deepEqual(score.evidenceRanks(hits, second, 4000), [2]);
  assert.deepEqual(score.evidenceRanks(hits, late, 4000), [Infinity]);
  assert.deepEqual(score.evidenceRanks(hits, late, 8000), [2]);
  // A line cut by the budget is not shown: line 12 ends at character 3299 of the reading.
  assert.deepEqual(score.evidenceRanks(hits, second, 3298), [Infinity]);
  assert.deepEqual(score.evidenceRanks(hits, second, 3299), [2]);
  // Two evidence items, one found: recall 0.5 at every k that reaches rank 2, MRR from the first found.
  const both = score.scoreRanks(score.evidenceRanks(hits, [...first, ...late], 4000));
  assert.deepEqual(both, { r1: 0.5, r5: 0.5, r10: 0.5, mrr: 1 });
  // An entry's id/source lines answer nothing.
  const entry = '## Decision: Keep it\n- id: DECISION-20260101-keep-it\n- date: 2026-01-01\n- conclusion: keep it';
  const shown = score.linesShown('memory/c.md', entry, `# day\n\n${entry}\n`, 99);
  assert.deepEqual(
    shown.map((s) => [s.line, s.answers]),
    [
      [3, true],
      [4, false],
      [5, false],
      [6, true],
    ],
  );
  assert.deepEqual(score.evidenceRanks([{ text: entry, shown }], [[{ path: 'memory/c.md', lines: [4, 5] }]], 16000), [
    Infinity,
  ]);
});

test('plain BM25: paragraphs merged up to the size, Okapi scores as computed by hand, folding and CJK from the tokenizer', () => {
  const file = 'alpha beta\n\ngamma\ndelta gamma\n\n' + 'omega '.repeat(30).trim();
  const paras = bm25.fileParagraphs(file);
  assert.deepEqual(
    paras.map((p) => p.map((l) => l.line)),
    [[1], [3, 4], [6]],
  );
  const merged = bm25.mergeParagraphs('f.md', paras, 40);
  assert.deepEqual(
    merged.map((c) => c.lineNos),
    [[1, null, 3, 4], [6]],
  );
  // Three one-paragraph docs: d0 "gamma gamma delta" (3 terms), d1 "gamma epsilon zeta eta theta" (5), d2 "iota" (1).
  const docs = ['gamma gamma delta', 'gamma epsilon zeta eta theta', 'iota'].map((text, i) => ({
    path: `d${i}.md`,
    text,
    lineNos: [1],
  }));
  const top = bm25.bm25Index(docs, tokens).search('Gamma', 10);
  assert.deepEqual(
    top.map((c) => c.path),
    ['d0.md', 'd1.md'],
  );
  const avg = 3; // (3 + 5 + 1) / 3
  const idf = Math.log(1 + (3 - 2 + 0.5) / (2 + 0.5));
  const expected = (tf: number, len: number): number => (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * len) / avg));
  assert.ok(Math.abs((top[0]?.score ?? 0) - expected(2, 3)) < 1e-12);
  assert.ok(Math.abs((top[1]?.score ?? 0) - expected(1, 5)) < 1e-12);
  // Traditional finds Simplified; a Chinese phrase inside a longer sentence is found.
  const zh = [
    { path: 'z.md', text: '订单库迁移到 TiDB 完成', lineNos: [1] },
    { path: 'y.md', text: '购物车保存 90 天', lineNos: [1] },
  ];
  assert.equal(bm25.bm25Index(zh, tokens).search('訂單庫遷移', 5)[0]?.path, 'z.md');
});

test('the scorer on memfold: a tiny folder through `mem search --json`, evidence found at its rank and not past the budget', async (t) => {
  const ws = join(tempDir(t, 'memfold-eval-'), 'ws');
  mkdirSync(join(ws, 'memory'), { recursive: true });
  writeFileSync(join(ws, 'mem.config.json'), JSON.stringify({ format_version: 1, timezone: 'UTC' }));
  const entry = (n: number, title: string, conclusion: string, pad: string): string =>
    `## Decision: ${title}\n- id: DECISION-2026010${n}-e${n}\n- date: 2026-01-0${n}\n- finding: ${pad}\n- conclusion: ${conclusion}\n- status: active\n`;
  const pad = 'the gauge reading was noted and filed for later review by the platform group. '.repeat(22);
  writeFileSync(
    join(ws, 'memory', '2026-01-01.md'),
    `# 2026-01-01\n\n${entry(1, 'Pool gauge one', 'pgbouncer pgbouncer pgbouncer gauge', pad)}\n${entry(2, 'Pool gauge two', 'pgbouncer pgbouncer gauge', pad)}\n`,
  );
  writeFileSync(
    join(ws, 'memory', '2026-01-03.md'),
    `# 2026-01-03\n\n${entry(3, 'Connection pool mode', 'pgbouncer runs in transaction mode', 'short')}\n`,
  );
  const { spawnSync } = await import('node:child_process');
  const env = { ...process.env, MEM_SEARCH_SERVER: 'off', MEM_COMPILE_CACHE: 'off', NO_COLOR: '1' };
  assert.equal(spawnSync(process.execPath, [BIN, 'index'], { cwd: ws, env }).status, 0);
  const hits = await systems.memfoldHits(BIN, ws, { query: 'pgbouncer transaction mode', command: 'search' }, 10, true);
  const evidence: Evidence = [[{ path: 'memory/2026-01-03.md', lines: [3, 8] }]];
  const rank = hits.findIndex((h) => h.shown.some((s) => s.path === 'memory/2026-01-03.md' && s.line === 7));
  assert.ok(rank >= 0, 'memfold shows the conclusion line of the evidence entry');
  // Where the conclusion line sits in the reading decides, at each budget, whether it counts.
  const before = hits.slice(0, rank).reduce((s, h) => s + h.text.length + 1, 0);
  const line = hits[rank]!.shown.find((s) => s.line === 7)!;
  for (const budget of [100, before + line.end - 1, before + line.end, 4000, 8000]) {
    const counted = score.evidenceRanks(hits, evidence, budget)[0] !== Infinity;
    const otherLines = hits[rank]!.shown.some(
      (s) => s.answers && s.line >= 3 && s.line <= 8 && before + s.end <= budget,
    );
    assert.equal(counted, otherLines, `budget ${budget}`);
  }
  assert.equal(score.evidenceRanks(hits, evidence, 16000)[0], rank + 1);
});

test("the committed queries are what the folders' content resolves to, and every evidence line answers", async () => {
  const build = await load<{
    FOLDERS: string[];
    resolveQueries(): Promise<{ id: string; split: string; evidence: Evidence }[]>;
    buildFolder(name: string): Promise<{ files: [string, string][] }>;
  }>('fixtures/search-eval/build.mjs');
  const { readFileSync } = await import('node:fs');
  const committed = ['dev', 'heldout'].flatMap((s) =>
    readFileSync(join(ROOT, 'fixtures', 'search-eval', 'queries', `${s}.jsonl`), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string }),
  );
  const resolved = await build.resolveQueries();
  assert.deepEqual(committed.map((q) => q.id).sort(), resolved.map((q) => q.id).sort());
  const byId = new Map(committed.map((q) => [q.id, q]));
  for (const q of resolved) assert.deepEqual(byId.get(q.id), q, q.id);
  assert.ok(
    resolved.length >= 300 && resolved.filter((q) => q.split === 'heldout').length * 3 >= resolved.length * 0.9,
  );
  const files = new Map<string, string>();
  for (const f of build.FOLDERS)
    for (const [rel, text] of (await build.buildFolder(f)).files) files.set(`${f}/${rel}`, text);
  for (const q of resolved as ({ folder: string } & (typeof resolved)[number])[]) {
    for (const alt of q.evidence.flat()) {
      const lines = files.get(`${q.folder}/${alt.path}`)?.split('\n') ?? [];
      const text = alt.path.endsWith('.jsonl')
        ? lines.slice(alt.lines[0] - 1, alt.lines[1])
        : lines.slice(alt.lines[0] - 1, alt.lines[1]).filter(score.answers);
      assert.ok(text.length > 0 && text.every((l) => l.trim() !== ''), `${q.id}: ${alt.path}:${alt.lines.join('-')}`);
    }
  }
});
