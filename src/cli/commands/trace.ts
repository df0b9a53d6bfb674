/** `mem trace <id>`: an entry's supersedes chain with dates, statuses and weekly-log lines; reads only. */
import type { Command } from 'commander';
import type { GlobalOptions } from '../context.js';
import { addOptions, COMMAND_OPTIONS } from '../options.js';
import { traceCommand } from '../read-commands.js';

export function registerTrace(program: Command): void {
  addOptions(
    program
      .command('trace')
      .argument('<id>', 'entry id, or a prefix only one id has (any case)')
      .description(
        "an entry's whole supersedes chain, oldest to newest, with statuses and the weekly-log lines that changed them",
      ),
    COMMAND_OPTIONS.trace,
  )
    .addHelpText(
      'after',
      '\nExamples:\n  mem trace DECISION-20261120-move-the-event-store-to-postgresql\n  mem trace RULE-20261120-cap-uploads-at-25-mb --json | jq .current',
    )
    // The body is shared with the fast path (read-commands.ts).
    .action(async (id: string, _o: unknown, cmd: Command) => traceCommand(id, cmd.optsWithGlobals<GlobalOptions>()));
}
