/**
 * What bin/mem.js runs. A plain `mem search` (fast-args.ts says which) is answered by the lean path:
 * no commander, zod or luxon, so a cold search costs little more than Node's own start-up (issue #3:
 * p50 ≤ 2× `node -e 0`). Everything else, and every help or usage error, goes to the full CLI
 * (main.ts). Errors print and exit exactly as main.ts does: one line, `mem: <message>`, exit code by
 * error kind (STYLE §3).
 */
import { describeError, EXIT, isMemError } from '../core/errors.js';
import { leanRoute } from './fast-args.js';

const route = leanRoute(process.argv.slice(2));
if (!route) {
  await import('./main.js');
} else {
  try {
    const { searchCommand } = await import('./search-command.js');
    await searchCommand(route.words, route.flags, route.global);
    process.exitCode = EXIT.ok;
  } catch (err) {
    const { c } = await import('./output.js');
    process.stderr.write(`${c.red('mem:')} ${describeError(err)}\n`);
    if (process.env.MEM_DEBUG && err instanceof Error) process.stderr.write(`${err.stack}\n`);
    process.exitCode = isMemError(err) ? err.exitCode : EXIT.error;
  }
}
