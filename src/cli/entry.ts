/**
 * The full CLI, which bin/mem.cjs runs (as the bundle dist/cli/cli.cjs: scripts/bundle.mjs) for every
 * command line its lean bundles leave alone (first.ts): everything but a plain `mem search`, `mem
 * index`, `mem get`, `mem trace` or `mem context`, every help and usage error included, goes to
 * main.ts. Those commands normally never get here; they are still answered the same way if it does
 * (the same functions as the bundles).
 */
import { leanIndex } from './lean-index.js';
import { leanRead } from './lean-read.js';
import { leanSearch } from './lean-search.js';

async function run(args: string[]): Promise<void> {
  if (
    (await leanSearch(args, process.env)) ||
    (await leanIndex(args, process.env)) ||
    (await leanRead(args, process.env))
  )
    return;
  const { main } = await import('./main.js');
  process.exitCode = await main(process.argv);
}

void run(process.argv.slice(2));
