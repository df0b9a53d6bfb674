/**
 * A plain `mem search` answered cold, bundled into one CommonJS file (dist/cli/search.cjs, built by
 * scripts/bundle.mjs): about 40 ms less start-up than the same code as ES modules at 10,000 files
 * (issue #3). bin/mem.cjs loads it only for a command line first.ts found to be a plain search;
 * entry.ts runs the same function.
 *
 * Invariant: the bundle is the same source as the ES modules, so both answer byte for byte alike (the
 * tests run searches through it). The build stamp the server checks and the server's entry are
 * found from the package root (core/package-root.ts), packages through createRequire from the
 * bundle's import.meta.url (scripts/bundle.mjs). Nothing reached from here may use top-level await
 * (CommonJS has none).
 */
import { leanRoute } from './fast-args.js';
import { runLean } from './lean-run.js';

/**
 * False when the command line is not a plain search after all (bin/mem.cjs then runs the CLI).
 * `serverDeclined`: first.ts asked the resident server, which will not answer this search.
 */
export async function leanSearch(
  args: string[],
  env: NodeJS.ProcessEnv,
  serverDeclined = false,
): Promise<boolean | 'answered'> {
  const route = leanRoute(args, env);
  if (!route) return false;
  const { searchCommand } = await import('./search-command.js');
  let answered = false;
  await runLean(async () => {
    answered = await searchCommand(route.words, route.flags, route.global, { serverDeclined });
  });
  return answered ? 'answered' : true;
}
