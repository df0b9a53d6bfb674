/**
 * The first thing `mem` runs (bin/mem.cjs): a plain `mem search` that the workspace's resident search
 * server can answer is answered here, before the CLI itself (ESM, configuration, search code) loads.
 * Bundled into one CommonJS file (dist/cli/served.cjs, `npm run build`): Node starts a CommonJS
 * script about 5 ms sooner than a module, and a served search is otherwise mostly start-up
 * (issue #3: ≤ 1.3× `node -e 0` with the server running).
 *
 * Invariant: it prints only a server's answer, which is the cold path's byte for byte (the server
 * fills `k` and "today" from the configuration it reloads on change, and sends that configuration's
 * warnings). In every other case — another command, help, --now/MEM_NOW, --since/--until, the
 * archive, a bad -k, no workspace, no server, a server that says "cold", any error — it returns false
 * having printed nothing, and the full CLI runs as if it had not been here (it asks the server again,
 * and may start one on demand).
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { leanRoute } from './fast-args.js';
import { c, outputFor } from './output.js';
import { locateWorkspace } from '../workspace/locate.js';
import { buildStamp, exchange, privateDir, PROTOCOL, realWorkspace, serverSwitch, socketAddress, socketDir } from '../search/server/protocol.js';

/** `root`: the package folder (dist/ is under it). True when the search was answered and printed. */
export async function served(args: string[], env: NodeJS.ProcessEnv, root: string): Promise<boolean> {
  try {
    if (serverSwitch(env) === 'off') return false;
    const route = leanRoute(args, env);
    if (!route) return false;
    const { words, flags: f, global: g } = route;
    if (g.now !== undefined || env.MEM_NOW !== undefined || f.since !== undefined || f.until !== undefined) return false;
    if (f.archive || f.source !== undefined || f.session !== undefined) return false;
    const query = words.join(' ');
    const k = f.k === undefined ? undefined : Number(f.k);
    if (!query.trim() || (k !== undefined && !(Number.isInteger(k) && k >= 1 && k <= 50))) return false;
    const realWs = realWorkspace(locateWorkspace(g.workspace, process.cwd(), env));
    if (process.platform !== 'win32' && !privateDir(socketDir())) return false;
    const reply = await exchange(socketAddress(realWs), {
      v: PROTOCOL, build: buildStamp(path.join(root, 'dist', 'search', 'server', 'protocol.js')), op: 'search', workspace: realWs, fill: true,
      query, ...(k === undefined ? {} : { k }), deep: !!f.deep, lexicalOnly: !!f.lexicalOnly,
      filters: { kind: f.kind, status: f.status, scope: f.scope, path: f.path },
    });
    if (!reply || reply === 'absent' || !reply.ok || !('outcome' in reply)) return false;
    const out = outputFor(g);
    for (const w of [...(reply.warnings ?? []), ...reply.outcome.notices]) out.warn(w);
    if (g.json) out.json(reply.outcome.response);
    else {
      // Human output formats with the CLI's own module (ESM, loaded only here).
      const { formatResults } = (await import(pathToFileURL(path.join(root, 'dist', 'search', 'present.js')).href)) as typeof import('../search/present.js');
      out.result(formatResults(reply.outcome.response, c));
    }
    return true;
  } catch {
    return false;
  }
}
