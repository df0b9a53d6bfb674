#!/usr/bin/env node
// hash-embedder.mjs — a deliberately weak embedding endpoint on 127.0.0.1 speaking the OpenAI wire
// format (POST /v1/embeddings), for trying `eval-search --embed-url` without a model: each text is
// its bag of memfold tokens hashed into `dimensions` buckets, L2-normalised. It knows no synonyms,
// so it shows what a poor model does to hybrid ranking. With --random, each text's vector comes from
// its SHA-256 instead: a model whose vectors are unrelated to the words (issue 32's second poor model).
//   node scripts/eval-search/hash-embedder.mjs [port] [--random]     (needs dist/: npm run build)
import { createHash } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const { tokenizeFolded, foldText } = await import(path.join(ROOT, 'dist', 'search', 'text', 'tokenize.js'));

const RANDOM = process.argv.includes('--random');

function embed(text, dims) {
  if (RANDOM) {
    const v = [];
    for (let block = 0; v.length < dims; block++) {
      const d = createHash('sha256').update(`${block}\0${text}`).digest();
      for (let i = 0; i + 1 < d.length && v.length < dims; i += 2) v.push(d.readUInt16LE(i) / 32767.5 - 1);
    }
    const n = Math.hypot(...v) || 1;
    return v.map((x) => x / n);
  }
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
  req.on('data', (c) => {
    body += c;
  });
  req.on('end', () => {
    let j;
    try {
      j = JSON.parse(body);
    } catch {
      res.writeHead(400).end('{"error":"bad json"}');
      return;
    }
    const input = Array.isArray(j.input) ? j.input : [j.input];
    const dims = Number.isInteger(j.dimensions) ? j.dimensions : 256;
    res.setHeader('content-type', 'application/json');
    res.end(
      JSON.stringify({
        object: 'list',
        model: j.model,
        data: input.map((t, index) => ({ object: 'embedding', index, embedding: embed(String(t), dims) })),
        usage: { prompt_tokens: 0, total_tokens: 0 },
      }),
    );
  });
});
server.listen(Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 18431), '127.0.0.1', () =>
  console.log(`http://127.0.0.1:${server.address().port}/v1`),
);
