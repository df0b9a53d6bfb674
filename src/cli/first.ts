/**
 * What bin/mem.cjs runs first, bundled into one CommonJS file (dist/cli/first.cjs, `npm run build`):
 * a plain `mem search`, served by the resident server when one answers (served.ts), otherwise
 * answered cold here. Node loads one CommonJS file far faster than the same code as some thirty ES
 * modules (about 25 ms of a 10,000-file cold search; issue #3), and a search is mostly start-up.
 * Anything else returns false having done nothing, and bin/mem.cjs runs the ES-module CLI (entry.ts).
 *
 * Invariant: the bundle is the same source as the ES modules, so both answer byte for byte alike (the
 * tests run searches through it). esbuild defines `import.meta.url` in the bundle as the URL of
 * dist/search/server/protocol.js, so the code that finds files beside itself finds what the ES
 * module would: the build stamp the server checks, the server's main.js, and packages loaded through
 * createRequire. Nothing reached from here may use top-level await (CommonJS has none).
 */
import { leanRoute } from './fast-args.js';
import { runLean } from './lean-run.js';
import { searchCommand } from './search-command.js';
import { served } from './served.js';

export async function first(args: string[], env: NodeJS.ProcessEnv): Promise<boolean> {
  if (await served(args, env)) return true;
  const route = leanRoute(args, env);
  if (!route) return false;
  await runLean(() => searchCommand(route.words, route.flags, route.global));
  return true;
}
