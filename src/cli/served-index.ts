/**
 * A plain `mem index` that the workspace's resident search server can run is run there (first.ts,
 * bundled as CommonJS): the server knows which files changed from its watches (index-job.ts), where
 * this process would stat every file. No configuration or indexing code is loaded here. When no
 * server runs, one may be started for the next run, as a search starts one (client.ts).
 *
 * Invariant: it prints only what the cold run would print for the same update, with the cold run's
 * code (index-command.ts, then job-hook.ts finishJobRun): the server replies with data only (its
 * configuration's warnings, the run's result and time, a job log it could not append to), printed
 * here through outputFor and search/index-report.ts reportIndexRun. --rebuild, --now/MEM_NOW (a
 * date to validate), MEM_SEARCH_SERVER=off, no server, a server that declines (many changes, a busy
 * lock, embeddings configured, any error) or does not start the run within a search's wait (wedged,
 * stopped): false, having printed nothing, and the index runs cold.
 */
import type { IndexRoute } from './fast-args.js';
import { nowText } from '../core/now-text.js';
import { locateWorkspace } from '../workspace/locate.js';
import { spawnIfWorth } from '../search/server/client.js';
import { exchange, requestHead, serverSwitch } from '../search/server/protocol.js';
import { indexRunIn } from '../search/server/reply-data.js';
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
    const reply = await exchange(
      socketAddress(realWs),
      {
        ...requestHead(realWs, env),
        op: 'index',
        pid: process.pid,
        ...(env.MEM_TRIGGER ? { trigger: env.MEM_TRIGGER } : {}),
      },
      undefined,
      INDEX_RUN_TIMEOUT_MS,
      ready,
    );
    // No server: this run indexes here, and may start one for the next (as a search does).
    if (reply === 'absent') await spawnIfWorth(realWs, sw);
    if (reply !== 'absent' && !reply?.ok && env.MEM_DEBUG)
      process.stderr.write(`mem: search server: indexing here (${reply ? reply.cold : 'no reply in time'})\n`);
    const run = indexRunIn(reply);
    if (!run) return false;
    const [{ outputFor }, { reportIndexRun }] = await Promise.all([
      import('../terminal/output.js'),
      import('../search/run/index-report.js'),
    ]);
    // In the order, and the words, of a cold run: index-command.ts, then job-hook.ts finishJobRun.
    const out = outputFor(g);
    for (const w of run.warnings) out.warn(w);
    out.endProgress();
    reportIndexRun(out, run.result, null, run.seconds);
    if (run.logged) process.stderr.write(`warning: ${run.logged}\n`);
    return true;
  } catch {
    return false;
  }
}
