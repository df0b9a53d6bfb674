/**
 * `mem get` on the fast path, bundled alone into dist/cli/read-get.cjs (lean-read.ts routes to it):
 * the id index, the files it names, the entry printed, the use log; 70 KB where the bundle of every
 * read is half a megabyte. Same invariant as lean-read.ts: the body is read-commands.ts's.
 */
import type { FastRoute } from './fast-args.js';
import { runLean } from './lean-run.js';
import { getCommand } from './read-commands.js';

export async function runRead(r: FastRoute): Promise<void> {
  await runLean(() => getCommand(r.words[0]!, r.global));
}
