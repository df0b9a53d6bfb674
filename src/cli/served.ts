/**
 * A plain `mem search` that the workspace's resident search server can answer is answered here,
 * before anything else is read (first.ts, bundled as CommonJS): no configuration, no search code,
 * no output code. A served search is otherwise mostly start-up (issue #3: ≤ 1.3× `node -e 0` with
 * the server running), so the request goes out first, and what printing needs (the stdout stream)
 * is set up while the server answers.
 *
 * Invariant: it prints only a server's answer, which is the cold path's byte for byte (the server
 * fills `k` and "today" from the configuration it reloads on change, adds that configuration's
 * warnings, and prints with the cold path's code as this client would print: output.ts capture). In every other case — another command, help, --now/MEM_NOW, --since/--until,
 * the archive, a bad -k, no workspace, no server, a server that says "cold", any error — it prints
 * nothing, and the search runs as if this had not been tried (lean-search.ts: it reads the
 * configuration, asks the server, may start one on demand, or answers cold); except that a server
 * that declined or never replied (protocol.ts `declined`) is not asked a second time.
 */
import { createRequire } from 'node:module';
import type { SearchRoute } from './fast-args.js';
import { wantsColour } from '../terminal/colors.js';
import { nowText } from '../core/now-text.js';
import { locateWorkspace } from '../workspace/locate.js';
import { declined, exchange, printedIn, requestHead, serverSwitch } from '../search/server/protocol.js';
import type { Printed, Render } from '../terminal/printed.js';
import { privateDir, realWorkspace, socketAddress, socketDir } from '../search/server/address.js';

/**
 * True when the search was answered and printed; 'declined' when the server will not answer it.
 * `ready` sets up the output (bin/mem.cjs), called while the server answers.
 */
export async function served(route: SearchRoute, env: NodeJS.ProcessEnv, ready?: () => void): Promise<boolean | 'declined'> {
  try {
    if (serverSwitch(env) === 'off') return false;
    const { words, flags: f, global: g } = route;
    if (nowText(g, env) !== undefined || f.since !== undefined || f.until !== undefined) return false;
    if (f.archive || f.source !== undefined || f.session !== undefined) return false;
    const query = words.join(' ');
    const k = f.k === undefined ? undefined : Number(f.k);
    if (!query.trim() || (k !== undefined && !(Number.isInteger(k) && k >= 1 && k <= 50))) return false;
    const realWs = realWorkspace(locateWorkspace(g.workspace, process.cwd(), env));
    if (process.platform !== 'win32' && !privateDir(socketDir())) return false;
    const reply = await exchange(socketAddress(realWs), {
      ...requestHead(realWs, env), op: 'search', fill: true, render: render(g, env),
      query, ...(k === undefined ? {} : { k }), deep: !!f.deep, lexicalOnly: !!f.lexicalOnly,
      filters: { kind: f.kind, status: f.status, scope: f.scope, path: f.path },
    }, undefined, undefined, ready);
    if (declined(reply)) return 'declined';
    const printed = printedIn(reply);
    if (!printed) return false;
    writePrinted(printed);
    return true;
  } catch {
    return false;
  }
}

/** How this process would print (output.ts), without making the stdout and stderr streams. */
export function render(g: { json?: boolean; quiet?: boolean }, env: NodeJS.ProcessEnv): Render {
  const terminal = isTerminal();
  return { json: !!g.json, quiet: !!g.quiet, colour: wantsColour(terminal(1), env), stderrTerminal: terminal(2) };
}

/** process.stdout.isTTY (fd 1) or process.stderr.isTTY (2) without making the stream: a TTY stream is made exactly when tty.isatty(fd). */
function isTerminal(): (fd: 1 | 2) => boolean {
  return (createRequire(import.meta.url)('node:tty') as typeof import('node:tty')).isatty;
}

/** A served answer's output, written in the order the cold path writes it. */
export function writePrinted(p: Printed): void {
  for (const [fd, text] of p) (fd === 1 ? process.stdout : process.stderr).write(text);
}
