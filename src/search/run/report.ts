/** The output of `mem search`, whoever answered it: this process (search-command.ts) or the resident server for a client (served.ts). */
import { formatResults } from './present.js';
import type { SearchOutcome } from '../query/outcome.js';
import type { Output } from '../../terminal/output.js';

export function reportSearch(out: Output, outcome: SearchOutcome): void {
  for (const n of outcome.notices) out.warn(n);
  if (out.opts.json) out.json(outcome.response);
  else out.result(formatResults(outcome.response, out.paint, outcome.marks));
}
