/**
 * A plain `mem context` (what a session start runs: no --query, --hook, --evidence or --now) that the
 * workspace's resident server can answer is answered here, before the context bundle or the
 * configuration is read (lean-read.ts). The server builds the pack with the cold path's own code
 * (context/run.ts, plugged in by cli/search-server.ts) under its configuration, which it reloads on
 * change, and takes memory/'s listing from the files its watcher tracks: a cold run states every
 * memory file to know its heads are current (about 50 ms at 10,000 files), which is most of its
 * time. The client prints the reply with the cold path's printer (context-print.ts).
 *
 * Invariant: it prints only a server's answer; in every other case (another command line, no
 * server, a server of another build or configuration, a bad budget, a malformed reply, any error)
 * it prints nothing and the context is built here as if this had not been tried.
 */
import fs from 'node:fs';
import type { ContextResult } from '../context/run.js';
import { nowText } from '../core/now-text.js';
import { exchange, requestHead, serverSwitch, type ContextAsk } from '../search/server/protocol.js';
import { privateDir, realWorkspace, socketAddress, socketDir } from '../search/server/address.js';
import { locateWorkspace } from '../workspace/locate.js';
import type { FastRoute } from './fast-args.js';

/** True when the pack was answered by the server and printed. */
export async function servedContext(r: FastRoute, env: NodeJS.ProcessEnv): Promise<boolean> {
  try {
    const f = r.flags as {
      query?: string;
      hook?: string;
      evidence?: boolean;
      format?: string;
      scope?: string;
      budget?: string;
    };
    const g = r.global;
    if (r.command !== 'context' || nowText(g, env) !== undefined) return false;
    if (f.query !== undefined || f.hook !== undefined || f.evidence) return false;
    const format = f.format ?? 'md';
    if (format !== 'md' && format !== 'json') return false;
    const answer = await askPack(locateWorkspace(g.workspace, process.cwd(), env), env, {
      cwd: process.cwd(),
      ...(f.scope !== undefined ? { scope: f.scope } : {}),
      ...(f.budget !== undefined ? { budget: f.budget } : {}),
    });
    if (!answer) return false;
    const [{ outputFor }, { printContext }] = await Promise.all([
      import('../terminal/output.js'),
      import('./context-print.js'),
    ]);
    const out = outputFor(g);
    for (const w of answer.warnings) out.warn(w);
    printContext(out, answer.pack, format, g);
    return true;
  } catch {
    return false;
  }
}

/**
 * The pack the workspace's resident server builds for `ask`, with the warnings of its configuration,
 * or undefined (no server, it declined, its reply is malformed, any error): build it here. Never
 * throws. With no server running, starts one on a large workspace (spawnIfWorth), for the next pack.
 */
export async function askPack(
  workspace: string,
  env: NodeJS.ProcessEnv,
  ask: ContextAsk,
): Promise<{ pack: ContextResult; warnings: string[] } | undefined> {
  try {
    const sw = serverSwitch(env);
    if (sw === 'off') return undefined;
    const realWs = realWorkspace(workspace);
    const spawn = async () => (await import('../search/server/client.js')).spawnIfWorth(realWs, sw);
    if (process.platform !== 'win32' && !privateDir(socketDir())) {
      // No socket folder yet: no server ever ran here; one another user owns or others can enter: never used.
      if (!fs.existsSync(socketDir())) await spawn();
      return undefined;
    }
    const reply = await exchange(socketAddress(realWs), { ...requestHead(realWs, env), op: 'context', ...ask });
    // No server: this pack is built here; on a workspace large enough to gain from one, start one for
    // the next session start and search, as a search does (search/server/client.ts: it exits after 10
    // idle minutes).
    if (reply === 'absent') {
      await spawn();
      return undefined;
    }
    if (env.MEM_DEBUG && reply && !reply.ok)
      process.stderr.write(`mem: search server: answering cold (${reply.cold})\n`);
    const answer = reply && reply.ok && 'context' in reply ? reply : undefined;
    const pack = answer && packIn(answer.context);
    return pack && Array.isArray(answer.warnings) && answer.warnings.every((w) => typeof w === 'string')
      ? { pack, warnings: answer.warnings }
      : undefined;
  } catch {
    return undefined;
  }
}

/** The pack as the server sent it, checked before it is printed; else undefined. */
function packIn(v: unknown): ContextResult | undefined {
  const r = v as Partial<ContextResult> | null | undefined;
  return r &&
    typeof r.text === 'string' &&
    typeof r.tokens === 'number' &&
    typeof r.budget === 'number' &&
    typeof r.scope === 'string' &&
    typeof r.tokenizer === 'string' &&
    Array.isArray(r.items) &&
    Array.isArray(r.warnings) &&
    r.warnings.every((w) => typeof w === 'string')
    ? (r as ContextResult)
    : undefined;
}
