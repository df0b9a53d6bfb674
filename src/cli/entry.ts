/**
 * The CLI as ES modules, which bin/mem.cjs runs for every command line its CommonJS bundles leave
 * alone (first.ts): everything but a plain `mem search` or `mem index`, every help and usage error
 * included, goes to the full CLI (main.ts). A plain search or index normally never gets here; it is
 * still answered the same way if it does (the same functions as the bundles).
 */
import { leanIndex } from './lean-index.js';
import { leanSearch } from './lean-search.js';

const args = process.argv.slice(2);
if (!(await leanSearch(args, process.env)) && !(await leanIndex(args, process.env))) await import('./main.js');
