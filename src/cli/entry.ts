/**
 * The CLI as ES modules, which bin/mem.cjs runs for every command line its CommonJS bundles leave
 * alone (first.ts): everything but a plain `mem search`, `mem index`, `mem get`, `mem trace` or
 * `mem context`, every help and usage error
 * included, goes to the full CLI (main.ts). Those commands normally never get here; they are
 * still answered the same way if it does (the same functions as the bundles).
 */
import { leanIndex } from './lean-index.js';
import { leanRead } from './lean-read.js';
import { leanSearch } from './lean-search.js';

const args = process.argv.slice(2);
if (
  !(await leanSearch(args, process.env)) &&
  !(await leanIndex(args, process.env)) &&
  !(await leanRead(args, process.env))
)
  await import('./main.js');
