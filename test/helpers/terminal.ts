/** Commands on a terminal in tests: util-linux `script` gives them a pseudo-terminal. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { childEnv } from './cli.js';

const run = promisify(execFile);

/** What the terminal shows of `argv` run with `env` (stdout and stderr, as the terminal got them). */
export async function onTerminal(argv: string[], env: Record<string, string>): Promise<string> {
  const line = argv.map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
  const { stdout } = await run('script', ['-qec', line, '/dev/null'], { env: childEnv(env), encoding: 'utf8' });
  return stdout;
}
