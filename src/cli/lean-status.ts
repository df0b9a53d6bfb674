/**
 * `mem status` on the fast path, bundled alone into dist/cli/status.cjs (scripts/bundle.mjs): the
 * read bundle (lean-read.ts) holds the pack, tokenizer and entry rendering that status never runs,
 * and compiling that half-megabyte was a tenth of a status at 1,000 files on Node 20 (no compile
 * cache). Same invariant as lean-read.ts: the body is status-command.ts's, which commander's action
 * runs too, so both paths print the same bytes and exit with the same codes.
 */
import { fastRoute } from './fast-args.js';
import { runLean } from './lean-run.js';
import { statusCommand, type StatusFlags } from './status-command.js';

/** False when the command line is not a plain status (bin/mem.cjs then tries the read bundle, then the CLI). */
export async function leanStatus(args: string[], env: NodeJS.ProcessEnv): Promise<boolean> {
  const r = fastRoute(args, env);
  if (r?.command !== 'status') return false;
  await runLean(() => statusCommand(r.flags as StatusFlags, r.global));
  return true;
}
