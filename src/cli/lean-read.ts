/**
 * `mem get`, `mem trace`, `mem context` and `mem status` on the fast path (status first goes to its own
 * bundle, lean-status.ts; it is here too for a command line bin/mem.cjs sent here): this router
 * (dist/cli/read.cjs) parses the command line and loads the one CommonJS bundle that runs it
 * (scripts/bundle.mjs builds them), as the lean search is (lean-search.ts): no commander, no zod on a
 * plainly valid configuration, no ES-module graph to resolve. `mem context` runs at every session
 * start, under the host's time limit for a hook (issue 28), and `mem get` whenever an agent opens an
 * entry: on Node 20 (no compile cache) compiling the half-megabyte of every read cost either more
 * than the work itself, so
 *   dist/cli/read-get.cjs      lean-read-get.ts      `mem get` (the id index, the named files)
 *   dist/cli/read-context.cjs  lean-read-context.ts  `mem context` without --query, --hook or --evidence
 *   dist/cli/read-all.cjs      lean-read-all.ts      the rest: trace, context with a query, a hook or evidence, status
 *
 * Invariant: the bodies are read-commands.ts's, which commander's actions run too, so the fast path
 * and the full CLI print the same bytes and exit with the same codes (runLean ends as main.ts does).
 * Nothing reached from here uses top-level await (CommonJS has none).
 */
import path from 'node:path';
import { fastRoute, type FastRoute } from './fast-args.js';
import { servedContext } from './served-context.js';

export type ReadBundle = 'read-get.cjs' | 'read-context.cjs' | 'read-all.cjs';

/** The bundle that runs a plain get, trace, context or status; undefined for any other command line. */
export function readBundleFor(r: FastRoute | undefined): ReadBundle | undefined {
  if (!r || (r.command !== 'get' && r.command !== 'trace' && r.command !== 'context' && r.command !== 'status'))
    return undefined;
  if (r.command === 'get') return 'read-get.cjs';
  const f = r.flags;
  return r.command === 'context' && f.query === undefined && f.hook === undefined && !f.evidence
    ? 'read-context.cjs'
    : 'read-all.cjs';
}

/** False when the command line is not a plain get, trace, context or status (bin/mem.cjs then runs the CLI). */
export async function leanRead(args: string[], env: NodeJS.ProcessEnv): Promise<boolean> {
  const r = fastRoute(args, env);
  const bundle = readBundleFor(r);
  if (!bundle) return false;
  // A plain context the resident server answers: no bundle, no configuration read here (served-context.ts).
  if (bundle === 'read-context.cjs' && (await servedContext(r!, env))) return true;
  // Beside this file in dist/cli/ (only the bundle runs this function).
  await (require(path.join(__dirname, bundle)) as { runRead(r: FastRoute): Promise<void> }).runRead(r!);
  return true;
}
