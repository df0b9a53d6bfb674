/**
 * What bin/mem.cjs runs first, bundled into one small CommonJS file (dist/cli/first.cjs, built by
 * scripts/bundle.mjs): is this a plain `mem search`, and can the resident server answer it before
 * anything else is read (served.ts)? `done`: answered. `search`: a plain search to answer cold,
 * which bin/mem.cjs hands to the lean search bundle (lean-search.ts, dist/cli/search.cjs). `cli`:
 * anything else, for the ES-module CLI (entry.ts). Each bundle is loaded only when needed: Node
 * loads one CommonJS file far faster than the same code as ES modules, but a large one still costs.
 */
import { leanRoute } from './fast-args.js';
import { served } from './served.js';

export async function first(args: string[], env: NodeJS.ProcessEnv): Promise<'done' | 'search' | 'cli'> {
  const route = leanRoute(args, env);
  if (!route) return 'cli';
  return (await served(route, env)) ? 'done' : 'search';
}
