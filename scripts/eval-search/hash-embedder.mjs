#!/usr/bin/env node
// hash-embedder.mjs — a deliberately weak embedding endpoint on 127.0.0.1 speaking the OpenAI wire
// format (POST /v1/embeddings), for trying `eval-search --embed-url` without a model: each text is
// its bag of memfold tokens hashed into `dimensions` buckets, L2-normalised. It knows no synonyms,
// so it shows what a poor model does to hybrid ranking.
//   node scripts/eval-search/hash-embedder.mjs [port]     (needs dist/: npm run build)
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const { tokenizeFolded, foldText } = await import(path.join(ROOT, 'dist', 'search', 'tokenize.js'));

function embed(text, dims) {
  const v = new Array(dims).fill(0);
  for (const w of tokenizeFolded(foldText(text), false)) {
    let h = 2166136261;
    for (const c of w) h = Math.imul(h ^ c.codePointAt(0), 16777619) >>> 0;
    v[h % dims] += 1;
  }
  const n = Math.hypot(...v) || 1;
  return v.map((x) => x / n);
}

const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c) => { body += c; });
  req.on('end', () => {
    let j;
    try { j = JSON.parse(body); } catch { res.writeHead(400).end('{"error":"bad json"}'); return; }
    const input = Array.isArray(j.input) ? j.input : [j.input];
    const dims = Number.isInteger(j.dimensions) ? j.dimensions : 256;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ object: 'list', model: j.model, data: input.map((t, index) => ({ object: 'embedding', index, embedding: embed(String(t), dims) })), usage: { prompt_tokens: 0, total_tokens: 0 } }));
  });
});
server.listen(Number(process.argv[2] ?? 18431), '127.0.0.1', () => console.log(`http://127.0.0.1:${server.address().port}/v1`));
