/**
 * A real OpenAI-compatible HTTP server on 127.0.0.1 for tests (STYLE §5: no module mocking). It
 * speaks the wire format the official `openai` client expects for `POST /v1/chat/completions` and
 * `POST /v1/embeddings`, records every request, and plays a script per endpoint:
 *
 *   const llm = await startOpenAIServer();          // llm.url ends in /v1: use it as baseURL
 *   llm.chat.enqueue(reply.status(500), reply.json({ entries: [] }));   // then the queue is empty →
 *   llm.chat.handler = (body) => ({ entries: [] }); // the handler answers every later request
 *   ... run the code or spawn `mem` with baseURL = llm.url ...
 *   assert.equal(llm.chat.requests.length, 2);
 *   assert.ok(!JSON.stringify(llm.requests).includes(secret));
 *   await llm.close();
 *
 * The server lives in the test's own process: spawn `mem` with async child_process calls (spawn,
 * promisified execFile), never spawnSync/execFileSync, which block the event loop that answers.
 *
 * Scripted error replies carry `retry-after-ms: 0` by default, so the client's own retry happens at
 * once and tests stay fast; pass `retryAfterMs: null` to get the client's real backoff.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** What one request gets. `usage: null` omits usage from the reply (some local servers do). */
export type ChatBehaviour =
  | { type: 'content'; content: string | null; finishReason?: string; refusal?: string; usage?: Usage | null }
  | { type: 'status'; status: number; body?: unknown; retryAfterMs?: number | null }
  | { type: 'delay'; ms: number; then?: ChatBehaviour };

export type EmbeddingBehaviour =
  | { type: 'vectors'; vectors: number[][] }
  | { type: 'raw'; body: string }
  | { type: 'status'; status: number; body?: unknown; retryAfterMs?: number | null }
  | { type: 'hangUp' }
  | { type: 'delay'; ms: number; then?: EmbeddingBehaviour };

type StatusOptions = { body?: unknown; retryAfterMs?: number | null; times?: number };
const statuses = (status: number, opts: StatusOptions) =>
  Array.from({ length: opts.times ?? 1 }, () => ({
    type: 'status' as const,
    status,
    body: opts.body,
    retryAfterMs: opts.retryAfterMs,
  }));

/** Chat behaviours; `status(code, { times })` gives the same failure n times (enqueue flattens). */
export const reply = {
  /** Content = JSON.stringify(value): a well-formed structured reply. */
  json: (value: unknown, usage?: Usage | null): ChatBehaviour => ({
    type: 'content',
    content: JSON.stringify(value),
    usage,
  }),
  /** Raw content, verbatim (prose, fenced JSON, anything). */
  content: (
    content: string | null,
    extra: { finishReason?: string; refusal?: string; usage?: Usage | null } = {},
  ): ChatBehaviour => ({ type: 'content', content, ...extra }),
  /** Truncated JSON, as a model cut off mid-answer would send. */
  invalidJson: (): ChatBehaviour => ({ type: 'content', content: '{"entries": [ {"kind": "Decision", "title": ' }),
  status: (status: number, opts: StatusOptions = {}): ChatBehaviour[] => statuses(status, opts),
  /** Holds the reply for `ms` (longer than the client's timeout to test timeouts), then plays `then`. */
  delay: (ms: number, then?: ChatBehaviour): ChatBehaviour => ({ type: 'delay', ms, then }),
};

/**
 * One entry of an extraction reply as the model sends it (strict mode: every field present). The
 * defaults are a bare Note on turn 1; a case overrides what it is about.
 */
export const wireEntry = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  kind: 'Note',
  title: 'x',
  conclusion: 'y',
  why: null,
  finding: null,
  impact: null,
  confidence: 0.95,
  origin: 'user',
  key: null,
  scope: null,
  refs: null,
  revises: false,
  supersedes_hint: null,
  first_turn: 1,
  last_turn: 1,
  ...over,
});

/** Embedding behaviours, as `reply` for chat. */
export const embeddingReply = {
  vectors: (vectors: number[][]): EmbeddingBehaviour => ({ type: 'vectors', vectors }),
  /** HTTP 200 with this body verbatim: replies JSON.stringify cannot make (`1e400`, a bad `index`). */
  raw: (body: string): EmbeddingBehaviour => ({ type: 'raw', body }),
  status: (status: number, opts: StatusOptions = {}): EmbeddingBehaviour[] => statuses(status, opts),
  /** The connection is closed with no reply at all (a crashed or restarted server). */
  hangUp: (): EmbeddingBehaviour => ({ type: 'hangUp' }),
  delay: (ms: number, then?: EmbeddingBehaviour): EmbeddingBehaviour => ({ type: 'delay', ms, then }),
};

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body (undefined when it was not JSON); `raw` is the body as received. */
  body: any;
  raw: string;
  /** Which TCP connection it came on: 1 for the server's first, and so on (kept-alive requests share one). */
  connection: number;
}

export interface ChatRequestBody {
  model: string;
  messages: { role: string; content: string }[];
  response_format?: { type: string; json_schema?: { name: string; strict?: boolean; schema: unknown } };
  [key: string]: unknown;
}

export interface Endpoint<B, H> {
  /** Behaviours played in order, one per request; arrays (from reply.status) are flattened. */
  enqueue(...behaviours: (B | B[])[]): void;
  /** Behaviours not played yet. */
  pending(): number;
  /** Answers requests once the queue is empty. */
  handler: H;
  /** The requests this endpoint received, in arrival order. */
  readonly requests: RecordedRequest[];
}

/**
 * Returns (or resolves to) the reply content: a string is sent verbatim, anything else as JSON. A
 * handler that throws an HttpStatus gets that status (a 400 for one prompt's content, say); one that
 * throws anything else gets HTTP 500 with `x-should-retry: false` and the error's message.
 */
export type ChatHandler = (body: ChatRequestBody) => unknown;

/** Thrown by a chat handler to answer that one request with an HTTP error status. */
export class HttpStatus extends Error {
  constructor(
    readonly status: number,
    readonly body?: unknown,
  ) {
    super(`scripted HTTP ${status}`);
  }
}
export type EmbeddingHandler = (text: string, dimensions: number, model: string) => number[];

export interface OpenAIServer {
  /** `http://127.0.0.1:<port>/v1`: pass as baseURL. */
  url: string;
  /** Every request to any path, in arrival order. */
  requests: RecordedRequest[];
  chat: Endpoint<ChatBehaviour, ChatHandler>;
  embeddings: Endpoint<EmbeddingBehaviour, EmbeddingHandler> & { defaultDimensions: number };
  close(): Promise<void>;
}

/** Deterministic unit vector from sha256(text), float32-exact so base64 and float replies agree. */
export function hashVector(text: string, dimensions: number): number[] {
  const raw: number[] = [];
  for (let block = 0; raw.length < dimensions; block++) {
    const digest = createHash('sha256').update(`${block}\0${text}`).digest();
    for (let i = 0; i + 1 < digest.length && raw.length < dimensions; i += 2)
      raw.push(digest.readUInt16LE(i) / 32767.5 - 1);
  }
  const norm = Math.hypot(...raw) || 1;
  return raw.map((v) => Math.fround(v / norm));
}

/** The `[n] role: text` turns in a memfold extraction prompt, for handlers that answer per turn. */
export function promptTurns(body: ChatRequestBody): { index: number; role: string; text: string }[] {
  const user = body.messages
    .filter((m) => m.role === 'user')
    .map((m) => m.content)
    .join('\n');
  const turns: { index: number; role: string; text: string }[] = [];
  for (const line of user.split('\n')) {
    const m = /^\[(\d+)\] ([a-z]+)[^:]*?: ?(.*)$/.exec(line);
    if (m) turns.push({ index: Number(m[1]), role: m[2] ?? '', text: m[3] ?? '' });
    else if (line.startsWith('    ') && turns.length > 0) turns[turns.length - 1]!.text += `\n${line.slice(4)}`;
  }
  return turns;
}

function makeEndpoint<B, H>(
  all: RecordedRequest[],
  path: string,
  handler: H,
): Endpoint<B, H> & { next(): B | undefined } {
  const queue: B[] = [];
  return {
    enqueue: (...bs) => queue.push(...(bs.flat() as B[])),
    pending: () => queue.length,
    next: () => queue.shift(),
    handler,
    get requests() {
      return all.filter((r) => r.path === path);
    },
  };
}

function estimate(text: string): number {
  return Math.ceil(text.length / 4);
}

/** `keepAliveTimeoutMs`: how long an idle kept-alive connection stays open (Node's default 5 s). */
export async function startOpenAIServer(opts: { keepAliveTimeoutMs?: number } = {}): Promise<OpenAIServer> {
  const requests: RecordedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let seq = 0;
  const chat = makeEndpoint<ChatBehaviour, ChatHandler>(requests, '/v1/chat/completions', () => ({ entries: [] }));
  const embeddings = Object.assign(
    makeEndpoint<EmbeddingBehaviour, EmbeddingHandler>(requests, '/v1/embeddings', hashVector),
    { defaultDimensions: 16 },
  );

  const send = (res: ServerResponse, status: number, payload: unknown, headers: Record<string, string> = {}) => {
    if (res.destroyed || res.writableEnded) return; // the client gave up (timeout): nothing to answer
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(payload));
  };
  const sendStatus = (res: ServerResponse, b: { status: number; body?: unknown; retryAfterMs?: number | null }) => {
    const headers: Record<string, string> =
      b.retryAfterMs === null ? {} : { 'retry-after-ms': String(b.retryAfterMs ?? 0) };
    const body = b.body ?? {
      error: { message: `scripted HTTP ${b.status}`, type: 'server_error', param: null, code: null },
    };
    send(res, b.status, body, headers);
  };
  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => (timers.delete(t), fn()), ms);
    timers.add(t);
  };

  const playChat = (res: ServerResponse, body: ChatRequestBody, b: ChatBehaviour | undefined): void => {
    if (b?.type === 'delay') return later(b.ms, () => playChat(res, body, b.then));
    if (b?.type === 'status') return sendStatus(res, b);
    if (!b) {
      Promise.resolve()
        .then(() => chat.handler(body))
        .then(
          (out) =>
            playChat(res, body, { type: 'content', content: typeof out === 'string' ? out : JSON.stringify(out) }),
          (err: unknown) =>
            err instanceof HttpStatus
              ? sendStatus(res, { status: err.status, body: err.body })
              : send(
                  res,
                  500,
                  { error: { message: `chat handler threw: ${String(err)}`, type: 'server_error' } },
                  { 'x-should-retry': 'false' },
                ),
        );
      return;
    }
    const content = b.content;
    const prompt = estimate(JSON.stringify(body.messages ?? []));
    const completion = estimate(content ?? '');
    const usage =
      b.usage === undefined
        ? { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion }
        : b.usage;
    send(res, 200, {
      id: `chatcmpl-test-${++seq}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content, refusal: b.refusal ?? null },
          finish_reason: b.finishReason ?? 'stop',
          logprobs: null,
        },
      ],
      ...(usage ? { usage } : {}),
    });
  };

  const playEmbeddings = (res: ServerResponse, body: any, b: EmbeddingBehaviour | undefined): void => {
    if (b?.type === 'delay') return later(b.ms, () => playEmbeddings(res, body, b.then));
    if (b?.type === 'status') return sendStatus(res, b);
    if (b?.type === 'hangUp') return void res.socket?.destroy();
    if (b?.type === 'raw') return void res.writeHead(200, { 'content-type': 'application/json' }).end(b.body);
    const inputs: unknown[] =
      Array.isArray(body.input) && typeof body.input[0] !== 'number' ? body.input : [body.input];
    const texts = inputs.map((x) => (typeof x === 'string' ? x : JSON.stringify(x)));
    const dims = typeof body.dimensions === 'number' ? body.dimensions : embeddings.defaultDimensions;
    let vectors: number[][];
    try {
      vectors = b?.vectors ?? texts.map((t) => embeddings.handler(t, dims, String(body.model)));
    } catch (err) {
      return send(
        res,
        500,
        { error: { message: `embedding handler threw: ${String(err)}`, type: 'server_error' } },
        { 'x-should-retry': 'false' },
      );
    }
    const encode = (v: number[]) =>
      body.encoding_format === 'base64' ? Buffer.from(new Float32Array(v).buffer).toString('base64') : v;
    const tokens = texts.reduce((n, t) => n + estimate(t), 0);
    send(res, 200, {
      object: 'list',
      data: vectors.map((v, index) => ({ object: 'embedding', index, embedding: encode(v) })),
      model: body.model,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    });
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: any;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        body = undefined;
      }
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      requests.push({
        method: req.method ?? '',
        path,
        headers: req.headers,
        body,
        raw,
        connection: connections.get(req.socket) ?? 0,
      });
      if (req.method !== 'POST')
        return send(res, 405, { error: { message: 'only POST is served', type: 'invalid_request_error' } });
      if (body === undefined)
        return send(res, 400, { error: { message: 'body is not JSON', type: 'invalid_request_error' } });
      if (path === '/v1/chat/completions') return playChat(res, body, chat.next());
      if (path === '/v1/embeddings') return playEmbeddings(res, body, embeddings.next());
      send(res, 404, { error: { message: `no route ${path}`, type: 'invalid_request_error' } });
    });
  });
  const connections = new WeakMap<object, number>();
  let connectionCount = 0;
  server.on('connection', (socket) => connections.set(socket, ++connectionCount));
  if (opts.keepAliveTimeoutMs !== undefined) server.keepAliveTimeout = opts.keepAliveTimeoutMs;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    chat,
    embeddings,
    close: () => {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      server.closeAllConnections();
      return new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
    },
  };
}
