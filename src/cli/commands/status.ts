/** `mem status [--strict] [--fix]`: the workspace's health on one screen (docs/operations.md); the body: status-command.ts, shared with the fast path. */
import type { Command } from 'commander';
import type { GlobalOptions } from '../context.js';
import { addOptions, COMMAND_OPTIONS } from '../options.js';
import { statusCommand, type StatusFlags } from '../status-command.js';

export function registerStatus(program: Command): void {
  addOptions(
    program
      .command('status')
      .description(
        'jobs (last run, next run), locks, index freshness, providers and governance checks; read-only unless --fix',
      ),
    COMMAND_OPTIONS.status,
  )
    .addHelpText(
      'after',
      '\nExamples:\n  mem status\n  mem status --json | jq .problems\n  mem status --strict || echo "memfold needs attention"\n  mem status --fix\n\nThe --json schema is documented in docs/operations.md.',
    )
    .action(async (o: StatusFlags, cmd: Command) => statusCommand(o, cmd.optsWithGlobals<GlobalOptions>()));
}
