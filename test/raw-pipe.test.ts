/**
 * The client's end of the search server's socket (src/search/server/raw-pipe.ts): the pipe handle
 * taken from Node's bindings behaves as node:net's Socket does (same bytes, same ends), is taken on
 * this Node, and a served search under pending deprecation goes through node:net without a warning.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { test } from 'node:test';
import { connector, connectors, type Connect } from '../src/search/server/raw-pipe.js';
import { exchange, MAX_LINE, PROTOCOL } from '../src/search/server/protocol.js';
import { mem, tempDir } from './helpers/cli.js';
import { servedWorkspace, status } from './helpers/search-server.js';

/** What a connection heard: the bytes and how it ended. */
function talk(connect: Connect, address: string, request?: string): Promise<{ connected: boolean; bytes: Buffer; ended: string }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let connected = false;
    const conn = connect(address, {
      connected() {
        connected = true;
        if (request !== undefined) conn.write(request);
      },
      data: (chunk) => chunks.push(Buffer.from(chunk)),
      ended: (ended) => resolve({ connected, bytes: Buffer.concat(chunks), ended }),
    });
  });
}

/** A server that answers each request line with `reply(line)`, written in pieces a few ms apart, then closes. */
async function lineServer(t: { after(fn: () => void): void }, reply: (line: string) => Buffer[]): Promise<string> {
  const address = join(tempDir(t, 'memfold-pipe-'), 's.sock');
  const server = net.createServer((sock) => {
    let buf = '';
    sock.setEncoding('utf8').on('data', async (d: string) => {
      buf += d;
      const nl = buf.indexOf('\n');
      if (nl < 0) return;
      for (const piece of reply(buf.slice(0, nl))) {
        sock.write(piece);
        await new Promise((r) => setTimeout(r, 5));
      }
      sock.end();
    });
  });
  await new Promise<void>((r) => server.listen(address, r));
  t.after(() => server.close());
  return address;
}

test('on this Node a client connects through the pipe handle', () => {
  assert.notEqual(connector(), connectors.net, `Node ${process.version}: not node:net`);
  assert.ok(connectors.handle, 'the binding parts are all there');
});

for (const [name, connect] of Object.entries(connectors)) {
  test(`${name}: a request of 300 KB goes out whole, a reply split inside a character comes back whole, the end is "closed"`, async (t) => {
    const reply = Buffer.from(`{"echo":"为什么放弃 Redis 缓存"}\n`);
    const cut = reply.indexOf(Buffer.from('缓')) + 1; // inside the three bytes of 缓
    let heard = '';
    const address = await lineServer(t, (line) => {
      heard = line;
      return [reply.subarray(0, cut), reply.subarray(cut)];
    });
    const request = `${'为'.repeat(100_000)}\n`;
    const r = await talk(connect!, address, request);
    assert.equal(r.connected, true);
    assert.equal(heard, request.slice(0, -1), 'the server read the whole request');
    assert.deepEqual(r.bytes, reply);
    assert.equal(r.ended, 'closed');
  });

  test(`${name}: no socket file and a socket file nobody listens on are "absent"`, async (t) => {
    const dir = tempDir(t, 'memfold-pipe-');
    assert.deepEqual(await talk(connect!, join(dir, 'none.sock')), { connected: false, bytes: Buffer.alloc(0), ended: 'absent' });
    // A server killed with SIGKILL leaves its socket file: connecting is refused.
    const stale = join(dir, 'stale.sock');
    const child = spawn(process.execPath, ['-e', `require('net').createServer().listen(${JSON.stringify(stale)}, () => console.log('up'))`]);
    await once(child.stdout!, 'data');
    child.kill('SIGKILL');
    await once(child, 'exit');
    assert.ok(existsSync(stale), 'the socket file is left');
    assert.deepEqual(await talk(connect!, stale), { connected: false, bytes: Buffer.alloc(0), ended: 'absent' });
    writeFileSync(join(dir, 'plain.sock'), '');
    assert.deepEqual(await talk(connect!, join(dir, 'plain.sock')), { connected: false, bytes: Buffer.alloc(0), ended: 'absent' }, 'a plain file is no socket');
  });

  test(`${name}: close() ends a connection the server keeps open, once`, async (t) => {
    const address = join(tempDir(t, 'memfold-pipe-'), 's.sock');
    const server = net.createServer(() => {});
    await new Promise<void>((r) => server.listen(address, r));
    t.after(() => server.close());
    const ends: string[] = [];
    await new Promise<void>((resolve) => {
      const conn = connect!(address, {
        connected: () => {
          conn.close();
          conn.close();
          setTimeout(resolve, 50);
        },
        data: () => {},
        ended: (why) => ends.push(why),
      });
    });
    assert.deepEqual(ends, ['closed']);
  });
}

test('exchange() reads a reply after a Started line, split inside a character, and gives up on a line past MAX_LINE', async (t) => {
  const reply = Buffer.from(`${JSON.stringify({ v: 1, started: true })}\n${JSON.stringify({ v: 1, ok: false, cold: '为什么放弃 Redis 缓存' })}\n`);
  const cut = reply.indexOf(Buffer.from('缓')) + 2;
  const address = await lineServer(t, () => [reply.subarray(0, 10), reply.subarray(10, cut), reply.subarray(cut)]);
  const got = await exchange(address, { v: PROTOCOL, build: '', op: 'status', workspace: '' }, 10_000);
  assert.deepEqual(got, { v: 1, ok: false, cold: '为什么放弃 Redis 缓存' });
  const huge = await lineServer(t, () => [Buffer.alloc(MAX_LINE + 1, 'x')]);
  assert.equal(await exchange(huge, { v: PROTOCOL, build: '', op: 'status', workspace: '' }, 10_000), undefined);
});

test('under pending deprecation a served search goes through node:net: the same answer, and no warning', async (t) => {
  const { ws, up } = await servedWorkspace(t);
  const cold = await mem(['-C', ws, '--json', 'search', 'postgres'], { env: { MEM_SEARCH_SERVER: 'off' } });
  const served = await mem(['-C', ws, '--json', 'search', 'postgres'], { env: { NODE_OPTIONS: '--pending-deprecation --throw-deprecation' } });
  assert.equal(served.code, 0, served.stderr);
  assert.equal(served.stderr, '');
  assert.equal(served.stdout, cold.stdout);
  assert.equal((await status(ws))!.fast - up.fast, 1, 'answered by the server');
});
