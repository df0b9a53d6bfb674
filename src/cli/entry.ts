/**
 * What bin/mem.cjs runs when the resident search server did not answer first (served.ts). A plain
 * `mem search` or `mem index` (fast-args.ts says which) takes the lean path: no commander, zod or
 * luxon, so a cold search costs little more than Node's own start-up (issue #3: p50 ≤ 2× `node -e 0`). Everything else, and every help or usage error, goes to the full CLI
 * (main.ts). Errors print and exit exactly as main.ts does: one line, `mem: <message>`, exit code by
 * error kind (STYLE §3).
 */
import { describeError, EXIT, isMemError } from '../core/errors.js';
import { leanIndexRoute, leanRoute } from './fast-args.js';

const args = process.argv.slice(2);
const route = leanRoute(args) ?? leanIndexRoute(args);
if (!route) {
  await import('./main.js');
} else {
  try {
    if (route.command === 'search') {
      const { searchCommand } = await import('./search-command.js');
      await searchCommand(route.words, route.flags, route.global);
    } else {
      // A job: its run leaves a line in the job log, as main.ts's hooks do for commander's commands.
      const hook = await import('../daemon/job-hook.js');
      await hook.startJobRun('index', route.global.workspace);
      try {
        await (await import('./index-command.js')).indexCommand(route.flags, route.global);
      } catch (err) {
        await hook.finishJobRun(err);
        throw err;
      }
      await hook.finishJobRun(undefined);
    }
    process.exitCode = EXIT.ok;
  } catch (err) {
    const { c } = await import('./output.js');
    process.stderr.write(`${c.red('mem:')} ${describeError(err)}\n`);
    if (process.env.MEM_DEBUG && err instanceof Error) process.stderr.write(`${err.stack}\n`);
    process.exitCode = isMemError(err) ? err.exitCode : EXIT.error;
  }
}
