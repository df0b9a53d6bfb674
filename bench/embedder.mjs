#!/usr/bin/env node
// embedder.mjs — a near-zero-cost embedding endpoint on 127.0.0.1 for the benchmarks: answers the
// OpenAI wire format (`POST /v1/embeddings`) at once with a unit vector from sha256(text), so a
// timed `mem search` shows what the client costs, not a model. Its connections stay kept alive
// (Node's default 5 s), as a real server's do: a client that keeps them open is seen lingering.
//
//   node bench/embedder.mjs [--dims 256]   # prints `http://127.0.0.1:<port>/v1` on its first line
//
// A bench starts it as a child (the bench itself blocks in spawnSync), reads the line, kills it at the end.
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { arg } from './lib.mjs';

const DIMS = parseInt(arg('dims', '256'), 10);

function vector(text, dims) {
  const raw = [];
  for (let block = 0; raw.length < dims; block++) {
    const digest = createHash('sha256').update(`${block}\0${text}`).digest();
    for (let i = 0; i + 1 < digest.length && raw.length < dims; i += 2) raw.push(digest.readUInt16LE(i) / 32767.5 - 1);
  }
  const norm = Math.hypot(...raw) || 1;
  return raw.map((v) => v / norm);
}

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"message":"body is not JSON"}}');
      return;
    }
    const input = Array.isArray(body.input) ? body.input : [body.input];
    const dims = typeof body.dimensions === 'number' ? body.dimensions : DIMS;
    const data = input.map((t, index) => ({ object: 'embedding', index, embedding: vector(String(t), dims) }));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ object: 'list', data, model: body.model, usage: { prompt_tokens: 0, total_tokens: 0 } }));
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`http://127.0.0.1:${server.address().port}/v1\n`);
});
process.on('SIGTERM', () => process.exit(0));
