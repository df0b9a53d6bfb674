/**
 * The resident search server of one workspace: holds the opened index between queries and answers
 * `mem search` clients over a local socket (protocol.ts). Invariants:
 * - one server per workspace: a second one finds the first answering and exits quietly (or, started
 *   by `mem watch`/`mem daemon`, asks it to stop and takes its place, except that a watch leaves a
 *   daemon's server be: the daemon hosts it for as long as it runs, and would not get it back when
 *   the watch stops); a socket left by a dead server (connection refused) is removed and reused; a
 *   server whose socket file was replaced or removed stops by itself;
 * - a search writes nothing (the server's own file is its socket, in the user's private folder); only
 *   a `mem index` a client asks for writes, as that run would (index-job.ts: `.mem/index/` and the job
 *   log, under the index lock);
 * - it stops by itself after `idleMs` without a request (on-demand servers), when its parent goes
 *   (watch/daemon servers: the IPC channel closes), when the workspace disappears, or on
 *   SIGTERM/SIGINT/SIGHUP; each way removes its socket and exits 0.
 */
import fs from 'node:fs';
import net from 'node:net';
import { answer, Cold } from './answer.js';
import { FileTracker } from './files.js';
import { serveIndex } from './index-job.js';
import { claim, prepareDir, type Another } from './claim.js';
import {
  buildStamp,
  clientEnv,
  envMismatch,
  MAX_LINE,
  PROTOCOL,
  type Reply,
  type Request,
  type SearchQuery,
  type Started,
} from './protocol.js';
import { socketAddress } from './address.js';
import { keepConnectionsAlive } from '../embed/embed-http.js';
import { dayIn } from '../../core/zone.js';
import { TierCache } from './tiers.js';
import type { ManifestCache } from '../index/tier-file.js';
import type { ServerOptions } from './claim.js';
import { configStamp, statusReply, type ServedCounts } from './server-status.js';

export interface Running {
  address: string;
  /** Resolves once the server has stopped, with why. */
  closed: Promise<string>;
  stop(why: string): void;
}

export async function startServer(o: ServerOptions): Promise<Running | Another> {
  prepareDir();
  // Every served search embeds its query: one kept connection to the provider, not one each.
  keepConnectionsAlive();
  const address = socketAddress(o.workspace);
  const build = buildStamp();
  const env = clientEnv(process.env);
  let loaded = o.loadConfig();
  let cfgStamp = configStamp(o.configFiles);
  let files = new FileTracker(o.workspace, loaded.config.extraPaths);
  let tiers = new TierCache(o.workspace, files, loaded.config.search);
  const counts: ServedCounts = { served: 0, cold: 0, fast: 0, indexed: 0 };
  const manifests: ManifestCache = new Map();
  const times: number[] = [];
  let last = Date.now();
  let chain: Promise<unknown> = Promise.resolve();
  let stopping = false;
  let resolveClosed!: (why: string) => void;
  const closed = new Promise<string>((r) => (resolveClosed = r));
  const startedAt = new Date().toISOString();

  const refreshConfig = () => {
    const now = configStamp(o.configFiles);
    if (now === cfgStamp) return;
    const next = o.loadConfig();
    cfgStamp = now;
    const paths = JSON.stringify(next.config.extraPaths) !== JSON.stringify(loaded.config.extraPaths);
    const chunking = JSON.stringify(next.config.search) !== JSON.stringify(loaded.config.search);
    loaded = next;
    if (paths || chunking) {
      tiers.close();
      if (paths) {
        files.close();
        files = new FileTracker(o.workspace, loaded.config.extraPaths);
      }
      tiers = new TierCache(o.workspace, files, loaded.config.search);
    }
  };

  /** `started()`: tells an index client its run starts now (protocol.ts). */
  const handle = async (req: Request, started: () => void): Promise<Reply> => {
    if (req.workspace !== o.workspace) return { v: PROTOCOL, ok: false, cold: 'another workspace' };
    if (req.op === 'status') return statusReply(o, counts, times, startedAt, build);
    if (req.op === 'stop') {
      setImmediate(() => stop('asked to stop by another server'));
      return { v: PROTOCOL, ok: false, cold: 'stopping' };
    }
    if (req.build !== build) {
      // A client of another build: never mix versions. An on-demand server makes way for a new one.
      counts.cold++;
      if (o.mode === 'on-demand') setImmediate(() => stop('a client of another build asked'));
      return { v: PROTOCOL, ok: false, cold: 'server of another build' };
    }
    // Let file events already queued (an edit made before this client started) land first.
    await new Promise((r) => setImmediate(r));
    const t0 = performance.now();
    try {
      refreshConfig();
      const differs = envMismatch(req.env, env, loaded.config.timezone);
      if (differs) throw new Cold(differs);
      files.refresh();
      if (req.op === 'index') {
        started();
        const run = await serveIndex(o.workspace, loaded, files, req, manifests);
        counts.indexed++;
        return { v: PROTOCOL, ok: true, index: run };
      }
      if (req.op === 'archive') {
        // The archive tier, plugged in by the process hosting this server (cli/search-server.ts).
        if (!o.archive) throw new Cold('no archive tier in this server');
        const served = await o.archive(loaded.config, req);
        counts.served++;
        return { v: PROTOCOL, ok: true, ...served };
      }
      if (req.op === 'context') {
        // The pack, plugged in by the process hosting this server (cli/search-server.ts).
        if (!o.context) throw new Cold('no context in this server');
        const context = await o.context(loaded, req, files.memoryFiles());
        counts.served++;
        return { v: PROTOCOL, ok: true, context, warnings: loaded.warnings };
      }
      // A client that read no configuration (src/cli/served.ts) gets this server's k, today and
      // warnings; it prints them and the outcome itself, with the cold path's code.
      const fill = 'fill' in req;
      const query: SearchQuery = fill ? { ...req, k: req.k ?? loaded.config.search.k, today: dayIn(loaded.zone) } : req;
      const outcome = await answer(
        { workspace: o.workspace, tiers, embedding: loaded.config.embedding ?? undefined },
        query,
      );
      counts.served++;
      if (times.push(performance.now() - t0) > 1000) times.shift();
      if (!fill) return { v: PROTOCOL, ok: true, outcome };
      counts.fast++;
      return { v: PROTOCOL, ok: true, outcome, warnings: loaded.warnings };
    } catch (err) {
      counts.cold++;
      return {
        v: PROTOCOL,
        ok: false,
        cold: err instanceof Cold ? err.message : `server error: ${(err as Error).message}`,
      };
    }
  };

  const server = net.createServer((sock) => {
    let buf = '';
    sock.setEncoding('utf8');
    sock.on('error', () => {});
    sock.on('data', (d: string) => {
      buf += d;
      if (buf.length > MAX_LINE) {
        sock.destroy();
        return;
      }
      const nl = buf.indexOf('\n');
      if (nl < 0) return;
      const line = buf.slice(0, nl);
      buf = '';
      sock.pause();
      let req: Request;
      try {
        req = JSON.parse(line) as Request;
        if (!req || typeof req !== 'object' || req.v !== PROTOCOL) throw new Error('protocol');
      } catch {
        sock.end(JSON.stringify({ v: PROTOCOL, ok: false, cold: 'bad request' } satisfies Reply) + '\n');
        return;
      }
      // One query at a time: a reload never closes a segment another query is reading.
      const run = chain.then(() =>
        handle(req, () => sock.write(JSON.stringify({ v: PROTOCOL, started: true } satisfies Started) + '\n')),
      );
      chain = run.catch(() => {});
      void run.then(
        (reply) => {
          if (req.op !== 'status' && req.op !== 'stop') last = Date.now(); // a status probe does not keep a server alive
          sock.end(JSON.stringify(reply) + '\n');
        },
        () => sock.destroy(),
      );
    });
  });

  const claimed = await claim(address, o, server);
  if (claimed !== 'serving') {
    files.close();
    return claimed;
  }
  const ino = process.platform === 'win32' ? 0 : fs.statSync(address).ino;

  const stop = (why: string) => {
    if (stopping) return;
    stopping = true;
    clearInterval(ticker);
    server.close();
    // Remove the socket only if it is still ours (a newer server may have taken the name).
    if (process.platform !== 'win32' && fs.statSync(address, { throwIfNoEntry: false })?.ino === ino)
      fs.rmSync(address, { force: true });
    void chain.finally(() => {
      tiers.close();
      files.close();
      resolveClosed(why);
    });
  };
  const every = Math.max(200, Math.min(5_000, o.idleMs ? Math.floor(o.idleMs / 4) : 5_000));
  const ticker = setInterval(() => {
    if (o.idleMs && Date.now() - last >= o.idleMs) return stop(`idle for ${Math.round((Date.now() - last) / 1000)} s`);
    if (!fs.existsSync(o.workspace)) return stop('the workspace is gone');
    if (process.platform !== 'win32' && fs.statSync(address, { throwIfNoEntry: false })?.ino !== ino)
      return stop('its socket was taken or removed');
  }, every);
  ticker.unref();
  // Prime the file list, the warm tier and the code paths of a query, so the first client is answered fast.
  chain = chain
    .then(async () => {
      // A long-lived process builds the full Traditional→Simplified converter once (a fresh search
      // builds a small one per query; same output, tested in fold.ts's tests).
      (await import('../text/fold.js')).fullConverter();
      files.refresh();
      await tiers.open('warm');
      for (const query of ['memory decision', '决定 缓存']) {
        await answer(
          { workspace: o.workspace, tiers, embedding: undefined },
          { query, k: 6, deep: true, filters: {}, today: '', lexicalOnly: true },
        ).catch(() => {});
      }
    })
    .catch(() => {});
  o.log(
    `search server for ${o.workspace} on ${address} (pid ${process.pid}, ${o.mode}${o.idleMs ? `, stops after ${Math.round(o.idleMs / 1000)} s idle` : ''})`,
  );
  return { address, closed, stop };
}
