/**
 * How `mem context` prints a pack, whoever built it (read-commands.ts in this process, or the
 * resident server for served-context.ts): its warnings and size on stderr (the size with -v), then
 * the pack's text, or the whole result as JSON. One printer, so a served pack and a cold one print
 * the same bytes.
 */
import type { ContextResult } from '../context/run.js';
import type { Output } from '../terminal/output.js';
import type { GlobalOptions } from './context.js';

export function printContext(out: Output, r: ContextResult, format: string, g: GlobalOptions): void {
  for (const w of r.warnings) out.info(w);
  out.info(`context: ${r.items.length} items, ${r.tokens} of ${r.budget} tokens (${r.tokenizer}), scope ${r.scope}`);
  if (g.json || format === 'json') process.stdout.write(JSON.stringify(r, null, 2) + '\n');
  else process.stdout.write(r.text);
}
