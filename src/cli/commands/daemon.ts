/** `mem daemon`: run the schedule and keep the index fresh until SIGINT/SIGTERM (docs/operations.md). */
import type { Command } from 'commander';
import { commandContext, type GlobalOptions } from '../context.js';
import { outliveOutputReaders } from '../lost-output.js';
import { runDaemon } from '../../daemon/run.js';

export function registerDaemon(program: Command): void {
  program
    .command('daemon')
    .description(
      'run the job schedule (mem.config.json "schedule", in its time zone) and keep the search index fresh, until stopped',
    )
    .addHelpText(
      'after',
      '\nExamples:\n  mem daemon -C ~/memory\n  mem daemon -v            # also print each job\'s output\n  nohup mem daemon -C ~/memory >> ~/memory/.mem/logs/daemon.log 2>&1 &\n\nStop it with Ctrl-C or SIGTERM: a running job is stopped safely (atomic writes, locks released).\nOne daemon per workspace (.mem/daemon.pid). Jobs log to .mem/logs/jobs.jsonl; see "mem status".',
    )
    .action(async (_o: unknown, cmd: Command) => {
      const { workspace, loaded, out } = commandContext(cmd.optsWithGlobals<GlobalOptions>());
      outliveOutputReaders();
      let onSignal: (name: string) => void = () => {};
      const stopSignal = new Promise<string>((resolve) => (onSignal = resolve));
      const handlers = (['SIGINT', 'SIGTERM', 'SIGHUP'] as const).map((sig) => {
        const h = () => onSignal(sig);
        process.on(sig, h);
        return [sig, h] as const;
      });
      try {
        await runDaemon({
          workspace,
          loaded,
          stopSignal,
          io: {
            line: (t) => process.stderr.write(`${new Date().toISOString()} ${t}\n`),
            warn: (t) => out.warn(t),
            info: (t) => out.info(t),
          },
        });
      } finally {
        for (const [sig, h] of handlers) process.off(sig, h);
      }
    });
}
