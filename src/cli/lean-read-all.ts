/**
 * Every read lean-read.ts routes to no smaller bundle (dist/cli/read-all.cjs): `mem trace`, `mem
 * context` with a query, a hook or evidence, and a status bin/mem.cjs sent here. Same invariant as
 * lean-read.ts: the bodies are read-commands.ts's and status-command.ts's.
 */
import type { FastRoute } from './fast-args.js';
import { runLean } from './lean-run.js';
import type { ContextFlags } from './read-commands.js';

export async function runRead(r: FastRoute): Promise<void> {
  await runLean(async () => {
    // status needs none of read-commands.ts (nor the luxon, tokenizer and pack code it loads).
    if (r.command === 'status') return (await import('./status-command.js')).statusCommand(r.flags, r.global);
    const read = await import('./read-commands.js');
    if (r.command === 'get') await read.getCommand(r.words[0]!, r.global);
    else if (r.command === 'trace') await read.traceCommand(r.words[0]!, r.global);
    else await read.contextCommand(r.flags as unknown as ContextFlags, r.global);
  });
}
