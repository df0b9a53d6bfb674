/**
 * How a lean command (entry.ts, first.ts) ends, exactly as main.ts ends commander's: on an error one
 * line, `mem: <message>`, and the exit code of its kind (STYLE §3); the stack only with MEM_DEBUG.
 */
import { describeError, EXIT, exitCodeOf } from '../core/errors.js';

export async function runLean(work: () => Promise<void>): Promise<void> {
  try {
    await work();
    process.exitCode = EXIT.ok;
  } catch (err) {
    const { c } = await import('../terminal/output.js');
    process.stderr.write(`${c.red('mem:')} ${describeError(err)}\n`);
    if (process.env.MEM_DEBUG && err instanceof Error) process.stderr.write(`${err.stack}\n`);
    process.exitCode = exitCodeOf(err);
  }
}
