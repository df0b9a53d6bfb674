/**
 * One JSON POST to an embeddings endpoint on node:http / node:https (each loaded on first use): the
 * whole exchange (connect, send, the reply read whole) under one deadline, after which the request
 * is destroyed and a TimeoutError thrown.
 *
 * Why not fetch: on Node 20 the first fetch loads undici (about 40 ms more than node:http for one
 * call), and a one-shot `mem search` lingered after printing while undici let go of its kept-alive
 * connection. So a call sends `Connection: close` (agent: false) and holds no socket once the
 * reply is read, unless it is told to keep connections alive: index batches, and every call of a
 * long-lived process (the resident search server, `mem mcp`: keepConnectionsAlive()). Those share
 * one keep-alive Agent per protocol, whose idle sockets Node un-refs (they never hold a process
 * open) and drops a second before the server's `Keep-Alive: timeout` hint. A request that fails on
 * a reused socket before any reply (the server closed it meanwhile) is sent once more on a new one.
 *
 * As with fetch on Node 20, HTTP_PROXY / HTTPS_PROXY are not honoured; 307 and 308 are followed with
 * the same POST (as fetch does), other redirects come back as their status.
 */
import type { Agent, ClientRequest, IncomingMessage } from 'node:http';

export interface Reply {
  status: number;
  text: string;
}

type Lib = typeof import('node:http');
const libs = new Map<string, Promise<Lib>>();
const agents = new Map<string, Agent>();
let keepAlive = false;

/** From now on every call of this process keeps its connection for the next (a long-lived process). */
export function keepConnectionsAlive(): void {
  keepAlive = true;
}

function lib(protocol: string): Promise<Lib> {
  let p = libs.get(protocol);
  if (!p)
    libs.set(
      protocol,
      (p = protocol === 'https:' ? (import('node:https') as unknown as Promise<Lib>) : import('node:http')),
    );
  return p;
}

function agentFor(l: Lib, protocol: string): Agent {
  let a = agents.get(protocol);
  if (!a) agents.set(protocol, (a = new l.Agent({ keepAlive: true })));
  return a;
}

function timeoutError(ms: number): Error {
  const e = new Error(`no reply within ${ms} ms`);
  e.name = 'TimeoutError';
  return e;
}

/** Posts `body` (JSON text) to `url` with `headers`; resolves to the status and the reply's text. */
export async function postJson(
  url: string,
  headers: Record<string, string>,
  body: string,
  opts: { timeoutMs: number; keepAlive?: boolean },
): Promise<Reply> {
  const deadline = performance.now() + opts.timeoutMs;
  let target = new URL(url);
  for (let hops = 0; ; hops++) {
    if (target.protocol !== 'http:' && target.protocol !== 'https:')
      throw new Error(`unsupported protocol ${target.protocol}`);
    const l = await lib(target.protocol);
    const agent = opts.keepAlive || keepAlive ? agentFor(l, target.protocol) : false;
    let reply: Reply & { location?: string };
    try {
      reply = await once(l, target, agent, headers, body, deadline, opts.timeoutMs);
    } catch (err) {
      // A kept socket the server closed meanwhile: nothing was answered, so it is sent again, once.
      if (!(err as { reused?: boolean }).reused) throw err;
      reply = await once(l, target, agent, headers, body, deadline, opts.timeoutMs);
    }
    if ((reply.status !== 307 && reply.status !== 308) || !reply.location || hops === 5)
      return { status: reply.status, text: reply.text };
    target = new URL(reply.location, target);
  }
}

function once(
  l: Lib,
  url: URL,
  agent: Agent | false,
  headers: Record<string, string>,
  body: string,
  deadline: number,
  timeoutMs: number,
): Promise<Reply & { location?: string }> {
  return new Promise((resolve, reject) => {
    let req: ClientRequest | undefined;
    const left = deadline - performance.now();
    const timer = setTimeout(() => fail(timeoutError(timeoutMs)), Math.max(0, left));
    let settled = false;
    let gotReply = false;
    function fail(err: Error & { reused?: boolean }): void {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (req?.reusedSocket && !gotReply && ['ECONNRESET', 'EPIPE'].includes((err as NodeJS.ErrnoException).code ?? ''))
        err.reused = true;
      req?.destroy();
      reject(err);
    }
    if (left <= 0) return;
    const payload = Buffer.from(body, 'utf8');
    req = l.request(
      url,
      { method: 'POST', agent, headers: { ...headers, 'content-length': String(payload.length) } },
      (res: IncomingMessage) => {
        gotReply = true;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', fail);
        res.on('close', () => {
          if (!res.complete) return fail(new Error('the connection closed before the reply was complete'));
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          // The reply is whole: a connection not kept is let go now, not after the server's FIN.
          if (!agent) req?.destroy();
          resolve({
            status: res.statusCode ?? 0,
            text: Buffer.concat(chunks).toString('utf8'),
            location: res.headers.location,
          });
        });
      },
    );
    req.on('error', fail);
    req.end(payload);
  });
}
