/**
 * A plain `mem index [--rebuild]`, bundled into one CommonJS file (dist/cli/index.cjs, built by
 * scripts/bundle.mjs) as the lean search is (lean-search.ts): after a one-file edit most of a run is
 * start-up (issue #3: ≤ 3× `node -e 0` at 10,000 files). No commander, zod or luxon; the run leaves
 * its job-log line as main.ts's hooks do for commander's commands. entry.ts runs the same function.
 *
 * Invariant, as for every bundle: nothing reached from here uses top-level await; the worker
 * threads' script is found from the package root (core/package-root.ts), not beside the bundle.
 */
import { leanIndexRoute } from './fast-args.js';
import { runLean } from './lean-run.js';

/**
 * False when the command line is not a plain `mem index` (bin/mem.cjs then runs the CLI); `updated`
 * when it updated a tier file by file (bin/mem.cjs then lets the bundle's code cache be completed).
 */
export async function leanIndex(args: string[], env: NodeJS.ProcessEnv): Promise<boolean | 'updated'> {
  const route = leanIndexRoute(args, env);
  if (!route) return false;
  const hook = await import('./job-hook.js');
  let updated = false;
  await runLean(async () => {
    await hook.startJobRun('index', route.global.workspace);
    try {
      updated = await (await import('./index-command.js')).indexCommand(route.flags, route.global);
    } catch (err) {
      await hook.finishJobRun(err);
      throw err;
    }
    await hook.finishJobRun(undefined);
  });
  return updated ? 'updated' : true;
}
