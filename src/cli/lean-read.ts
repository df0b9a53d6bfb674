/**
 * `mem get`, `mem trace`, `mem context` and `mem status` on the fast path (status first goes to its own
 * bundle, lean-status.ts; it is here too for a command line bin/mem.cjs sent here), bundled into one CommonJS file
 * (dist/cli/read.cjs, built by scripts/bundle.mjs) as the lean search is (lean-search.ts): no
 * commander, no zod on a plainly valid configuration, no ES-module graph to resolve. `mem context`
 * runs at every session start, under the host's time limit for a hook (issue 28).
 *
 * Invariant: the bodies are read-commands.ts's, which commander's actions run too, so the fast path
 * and the full CLI print the same bytes and exit with the same codes (runLean ends as main.ts does).
 * Nothing reached from here uses top-level await (CommonJS has none).
 */
import { fastRoute } from './fast-args.js';
import { runLean } from './lean-run.js';
import type { ContextFlags } from './read-commands.js';

/** False when the command line is not a plain get, trace, context or status (bin/mem.cjs then runs the CLI). */
export async function leanRead(args: string[], env: NodeJS.ProcessEnv): Promise<boolean> {
  const r = fastRoute(args, env);
  if (!r || (r.command !== 'get' && r.command !== 'trace' && r.command !== 'context' && r.command !== 'status')) return false;
  await runLean(async () => {
    // status needs none of read-commands.ts (nor the luxon, tokenizer and pack code it loads).
    if (r.command === 'status') return (await import('./status-command.js')).statusCommand(r.flags, r.global);
    const read = await import('./read-commands.js');
    if (r.command === 'get') await read.getCommand(r.words[0]!, r.global);
    else if (r.command === 'trace') await read.traceCommand(r.words[0]!, r.global);
    else await read.contextCommand(r.flags as unknown as ContextFlags, r.global);
  });
  return true;
}
