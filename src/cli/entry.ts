/**
 * The CLI as ES modules, which bin/mem.cjs runs for every command line that first.ts (the CommonJS
 * bundle it tries first) leaves alone: a plain `mem index` takes the lean path here (no commander, zod
 * or luxon: after a one-file edit most of a run is start-up), everything else, every help and usage
 * error included, goes to the full CLI (main.ts). A plain `mem search` normally never gets here;
 * it is still answered the same way if it does. Errors print and exit as main.ts does (lean-run.ts).
 */
import { leanIndexRoute, leanRoute } from './fast-args.js';
import { runLean } from './lean-run.js';

const args = process.argv.slice(2);
const route = leanRoute(args) ?? leanIndexRoute(args);
if (!route) {
  await import('./main.js');
} else if (route.command === 'search') {
  const { searchCommand } = await import('./search-command.js');
  await runLean(() => searchCommand(route.words, route.flags, route.global));
} else {
  // A job: its run leaves a line in the job log, as main.ts's hooks do for commander's commands.
  const hook = await import('../daemon/job-hook.js');
  await runLean(async () => {
    await hook.startJobRun('index', route.global.workspace);
    try {
      await (await import('./index-command.js')).indexCommand(route.flags, route.global);
    } catch (err) {
      await hook.finishJobRun(err);
      throw err;
    }
    await hook.finishJobRun(undefined);
  });
}
