/**
 * A plain `mem search` that the workspace's resident search server can answer is answered here,
 * before anything else is read (first.ts, bundled as CommonJS): no configuration and no search code;
 * the output code is loaded once the answer is there. A served search is otherwise mostly start-up (issue #3: ≤ 1.3× `node -e 0` with
 * the server running), so the request goes out first, and what printing needs (the stdout stream)
 * is set up while the server answers.
 *
 * Invariant: it prints only a server's answer, and prints it with the cold path's code
 * (search-command.ts: outputFor, the configuration's warnings, search/report.ts reportSearch): the
 * server replies with data only (the outcome, and the warnings of the configuration it reloads on
 * change, having filled `k` and "today" from it), so a served answer is the cold one byte for byte by
 * construction. In every other case — another command, help, --now/MEM_NOW, --since/--until,
 * the archive, a bad -k, no workspace, no server, a server that says "cold", a malformed reply, any
 * error — it prints nothing, and the search runs as if this had not been tried (lean-search.ts: it
 * reads the configuration, asks the server, may start one on demand, or answers cold); except that a
 * server that declined or never replied (protocol.ts `declined`) is not asked a second time.
 */
import type { SearchRoute } from './fast-args.js';
import { fitToChars, maxCharsOf } from '../search/query/fit-chars.js';
import { nowText } from '../core/now-text.js';
import { locateWorkspace } from '../workspace/locate.js';
import { declined, exchange, requestHead, serverSwitch } from '../search/server/protocol.js';
import { outcomeIn } from '../search/server/reply-data.js';
import { privateDir, realWorkspace, socketAddress, socketDir } from '../search/server/address.js';

/**
 * True when the search was answered and printed; 'declined' when the server will not answer it.
 * `ready` sets up the output (bin/mem.cjs), called while the server answers.
 */
export async function served(
  route: SearchRoute,
  env: NodeJS.ProcessEnv,
  ready?: () => void,
): Promise<boolean | 'declined'> {
  try {
    if (serverSwitch(env) === 'off') return false;
    const { words, flags: f, global: g } = route;
    if (nowText(g, env) !== undefined || f.since !== undefined || f.until !== undefined) return false;
    if (f.archive || f.source !== undefined || f.session !== undefined) return false;
    const query = words.join(' ');
    const k = f.k === undefined ? undefined : Number(f.k);
    if (!query.trim() || (k !== undefined && !(Number.isInteger(k) && k >= 1 && k <= 50))) return false;
    const maxChars = f.maxChars === undefined ? undefined : maxCharsOf(f.maxChars);
    if (maxChars === null) return false;
    const realWs = realWorkspace(locateWorkspace(g.workspace, process.cwd(), env));
    if (process.platform !== 'win32' && !privateDir(socketDir())) return false;
    const reply = await exchange(
      socketAddress(realWs),
      {
        ...requestHead(realWs, env),
        op: 'search',
        fill: true,
        query,
        ...(k === undefined ? {} : { k }),
        deep: !!f.deep,
        lexicalOnly: !!f.lexicalOnly,
        filters: { kind: f.kind, status: f.status, scope: f.scope, path: f.path },
      },
      undefined,
      undefined,
      ready,
    );
    if (declined(reply)) return 'declined';
    const answer = outcomeIn(reply);
    if (!answer) return false;
    // Loaded only now (the output module looks at stdout as it loads: set up while the server answered).
    const [{ outputFor }, { reportSearch }] = await Promise.all([
      import('../terminal/output.js'),
      import('../search/run/report.js'),
    ]);
    const out = outputFor(g);
    for (const w of answer.warnings) out.warn(w);
    reportSearch(out, maxChars === undefined ? answer.outcome : fitToChars(answer.outcome, maxChars));
    return true;
  } catch {
    return false;
  }
}
