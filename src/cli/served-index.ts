/**
 * A plain `mem index` that the workspace's resident search server can run is run there (first.ts,
 * bundled as CommonJS): the server knows which files changed from its watches (index-job.ts), where
 * this process would stat every file. No configuration or indexing code is loaded here. When no
 * server runs, one may be started for the next run, as a search starts one (client.ts).
 *
 * Invariant: it prints only what the cold run would print for the same update (the server's
 * configuration warnings, the run's warnings, the summary or --json, printed by the server with the
 * cold run's code for this client's options: output.ts capture). --rebuild, --now/MEM_NOW (a
 * date to validate), MEM_SEARCH_SERVER=off, no server, a server that declines (many changes, a busy
 * lock, embeddings configured, any error) or does not start the run within a search's wait (wedged,
 * stopped): false, having printed nothing, and the index runs cold.
 */
import type { IndexRoute } from './fast-args.js';
import { nowText } from '../core/now-text.js';
import { render, writePrinted } from './served.js';
import { locateWorkspace } from '../workspace/locate.js';
import { spawnIfWorth } from '../search/server/client.js';
import { exchange, printedIn, requestHead, serverSwitch } from '../search/server/protocol.js';
import { privateDir, realWorkspace, socketAddress, socketDir } from '../search/server/address.js';

/**
 * How long a client waits for the server's run once the server has started it (it declines long
 * ones up front). Until then, the wait is a search's (3 s): a wedged or stopped server is left at once.
 */
const INDEX_RUN_TIMEOUT_MS = 60_000;

/** True when the server ran the update and its outcome was printed. `ready`: as served.ts's. */
export async function servedIndex(route: IndexRoute, env: NodeJS.ProcessEnv, ready?: () => void): Promise<boolean> {
  try {
    const g = route.global;
    const sw = serverSwitch(env);
    if (sw === 'off' || route.flags.rebuild || nowText(g, env) !== undefined) return false;
    const realWs = realWorkspace(locateWorkspace(g.workspace, process.cwd(), env));
    if (process.platform !== 'win32' && !privateDir(socketDir())) {
      await spawnIfWorth(realWs, sw); // (when the folder is not there yet: the server makes it)
      return false;
    }
    const reply = await exchange(socketAddress(realWs), {
      ...requestHead(realWs, env), op: 'index', pid: process.pid, ...(env.MEM_TRIGGER ? { trigger: env.MEM_TRIGGER } : {}),
      render: render(g, env),
    }, undefined, INDEX_RUN_TIMEOUT_MS, ready);
    // No server: this run indexes here, and may start one for the next (as a search does).
    if (reply === 'absent') await spawnIfWorth(realWs, sw);
    if (reply !== 'absent' && !reply?.ok && env.MEM_DEBUG) process.stderr.write(`mem: search server: indexing here (${reply ? reply.cold : 'no reply in time'})\n`);
    const printed = printedIn(reply);
    if (!printed) return false;
    writePrinted(printed);
    return true;
  } catch {
    return false;
  }
}
