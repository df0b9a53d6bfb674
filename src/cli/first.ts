/**
 * What bin/mem.cjs runs first, bundled into one small CommonJS file (dist/cli/first.cjs, built by
 * scripts/bundle.mjs): is this a plain `mem search` or `mem index`, and can the resident server answer
 * it before anything else is read (served.ts, served-index.ts)? `done`: answered. `search`: a plain
 * search to answer cold, which bin/mem.cjs hands to the lean search bundle (lean-search.ts,
 * dist/cli/search.cjs); `search-declined`: the same, but the server was asked and will not answer
 * it; `index`: a plain index to run here (lean-index.ts, dist/cli/index.cjs). `cli`: anything else,
 * for the ES-module CLI (entry.ts). Each bundle is loaded only when needed: Node loads one CommonJS
 * file far faster than the same code as ES modules, but a large one still costs. `ready` sets up
 * the process's output (bin/mem.cjs): called while a server answers, else by the caller after.
 */
import { leanIndexRoute, leanRoute } from './fast-args.js';
import { served } from './served.js';
import { servedIndex } from './served-index.js';

export async function first(
  args: string[],
  env: NodeJS.ProcessEnv,
  ready?: () => void,
): Promise<'done' | 'search' | 'search-declined' | 'index' | 'cli'> {
  const index = leanIndexRoute(args, env);
  if (index) return (await servedIndex(index, env, ready)) ? 'done' : 'index';
  const route = leanRoute(args, env);
  if (!route) return 'cli';
  const answer = await served(route, env, ready);
  return answer === 'declined' ? 'search-declined' : answer ? 'done' : 'search';
}
