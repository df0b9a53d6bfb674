/**
 * `mem context` without --query, --hook or --evidence (what a session start runs), bundled into
 * dist/cli/read-context.cjs (lean-read.ts routes to it). The search, the evidence and the hook's code
 * stay out of this bundle (scripts/bundle.mjs puts a stub where context/run.ts and read-commands.ts
 * import them: lean-read.ts never sends such a command line here). Same invariant as lean-read.ts:
 * the body is read-commands.ts's.
 */
import type { FastRoute } from './fast-args.js';
import { runLean } from './lean-run.js';
import { contextCommand, type ContextFlags } from './read-commands.js';

export async function runRead(r: FastRoute): Promise<void> {
  await runLean(() => contextCommand(r.flags as unknown as ContextFlags, r.global));
}
