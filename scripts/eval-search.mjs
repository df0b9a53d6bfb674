#!/usr/bin/env node
// eval-search.mjs — `npm run eval:search`: the labelled search set of fixtures/search-eval/ scored
// for memfold (the built CLI) and a plain BM25 baseline at fixed text budgets (score.mjs).
//
//   node scripts/eval-search.mjs [--split dev|heldout|all] [--json] [--out FILE] [--keep]
//                                [--embed-url URL --embed-model M --embed-dims N]
//
// Each folder is written to a temp workspace by fixtures/search-eval/build.mjs, indexed (`mem index`,
// `mem archive`), and every query run through `mem search --json -k 10` (with `--deep` or `--archive`
// as the query says), two at a time. Without --embed-url the search is lexical; with it, the folders'
// mem.config.json points `embedding` at that OpenAI-wire endpoint and memfold runs hybrid.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUDGETS, evidenceRanks, scoreRanks } from './eval-search/score.mjs';
import { baseline, memfoldHits, runCli } from './eval-search/systems.mjs';
import { render, summarize } from './eval-search/report.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MEM = path.join(ROOT, 'bin', 'mem.cjs');
const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? def : args[i + 1];
};
const K = 10;
const CHUNK_SIZES = [800, 1600, 2400];

const KNOWN = new Set(['--split', '--json', '--out', '--keep', '--embed-url', '--embed-model', '--embed-dims']);
const TAKES = new Set(['--split', '--out', '--embed-url', '--embed-model', '--embed-dims']);
for (let i = 0; i < args.length; i++) {
  if (!KNOWN.has(args[i])) {
    console.error(`eval-search: unknown option ${args[i]} (known: ${[...KNOWN].join(' ')})`);
    process.exit(2);
  }
  if (TAKES.has(args[i]) && (args[i + 1] === undefined || args[i + 1].startsWith('--'))) {
    console.error(`eval-search: ${args[i]} needs a value`);
    process.exit(2);
  }
  if (TAKES.has(args[i])) i++;
}
const split = opt('split', 'all');
if (!['dev', 'heldout', 'all'].includes(split)) {
  console.error('eval-search: --split must be dev, heldout or all');
  process.exit(2);
}
const embedUrl = opt('embed-url', null);
if (!fs.existsSync(path.join(ROOT, 'dist', 'search', 'text', 'tokenize.js'))) {
  console.error('eval-search: no dist/: run "npm run build" first');
  process.exit(2);
}
const { tokenizeFolded, foldText } = await import(path.join(ROOT, 'dist', 'search', 'text', 'tokenize.js'));
const tokens = (text) => tokenizeFolded(foldText(text), false);
const { writeFolders } = await import(path.join(ROOT, 'fixtures', 'search-eval', 'build.mjs'));

const queries = ['dev', 'heldout']
  .filter((s) => split === 'all' || s === split)
  .flatMap((s) =>
    fs
      .readFileSync(path.join(ROOT, 'fixtures', 'search-eval', 'queries', `${s}.jsonl`), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l)),
  );
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mem-eval-search-'));
const t0 = performance.now();
try {
  await writeFolders(work);
  const folders = [...new Set(queries.map((q) => q.folder))];
  for (const f of folders) {
    const ws = path.join(work, f);
    if (embedUrl) {
      const cfgPath = path.join(ws, 'mem.config.json');
      const cfg = JSON.parse(fs.readFileSync(cfgPath, 'utf8'));
      cfg.embedding = {
        baseURL: embedUrl,
        model: opt('embed-model', 'eval'),
        dimensions: Number(opt('embed-dims', '256')),
        interactiveTimeoutMs: 30_000,
      };
      fs.writeFileSync(cfgPath, JSON.stringify(cfg, null, 2));
    }
    for (const cmd of [['index'], ['archive']]) {
      const r = await runCli(MEM, [...cmd, '--json'], ws);
      if (r.code !== 0) throw new Error(`mem ${cmd} in ${ws}: ${r.stderr.trim()}`);
    }
  }
  const baselines = new Map();
  const baselineFor = (q, size) => {
    const key = `${q.folder} ${q.command} ${size}`;
    if (!baselines.has(key)) baselines.set(key, baseline(path.join(work, q.folder), q.command, size, tokens));
    return baselines.get(key);
  };
  const rows = [];
  const record = (q, system, hits) => {
    const chars = hits.reduce((s, h) => s + h.text.length, 0);
    for (const budget of BUDGETS) {
      const ranks = evidenceRanks(hits, q.evidence, budget);
      rows.push({
        id: q.id,
        split: q.split,
        type: q.type,
        lang: q.lang,
        command: q.command,
        system,
        budget,
        chars,
        ranks,
        score: scoreRanks(ranks),
      });
    }
  };
  const label = embedUrl ? 'memfold-hybrid' : 'memfold';
  let next = 0;
  const worker = async () => {
    while (next < queries.length) {
      const q = queries[next++];
      record(q, label, await memfoldHits(MEM, path.join(work, q.folder), q, K, !embedUrl));
    }
  };
  await Promise.all([worker(), worker()]);
  for (const q of queries) for (const size of CHUNK_SIZES) record(q, `bm25-${size}`, baselineFor(q, size)(q.query, K));
  const summary = summarize(rows);
  const seconds = Math.round((performance.now() - t0) / 100) / 10;
  const json = JSON.stringify(
    {
      queries: queries.length,
      budgets: BUDGETS,
      k: K,
      embedUrl,
      seconds,
      summary,
      perQuery: rows
        .filter((r) => r.budget === BUDGETS[1])
        .map(({ id, system, ranks, chars }) => ({
          id,
          system,
          ranks: ranks.map((r) => (r === Infinity ? null : r)),
          chars,
        })),
    },
    null,
    1,
  );
  if (opt('out', null)) fs.writeFileSync(opt('out', null), `${json}\n`);
  if (args.includes('--json')) {
    console.log(json);
  } else {
    console.log(
      `search eval: ${queries.length} queries, ${new Set(queries.map((q) => q.folder)).size} folders, k = ${K}, ${embedUrl ? `hybrid with ${embedUrl}` : 'memfold lexical'}; ${seconds} s`,
    );
    console.log(render(summary));
  }
} finally {
  if (args.includes('--keep')) console.error(`workspaces kept in ${work}`);
  else fs.rmSync(work, { recursive: true, force: true });
}
