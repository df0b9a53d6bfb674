/** `mem get <id>`: one entry, with its file and lines (the body: read-commands.ts, shared with the fast path). */
import type { Command } from 'commander';
import type { GlobalOptions } from '../context.js';
import { addOptions, COMMAND_OPTIONS } from '../options.js';
import { getCommand } from '../read-commands.js';

export function registerGet(program: Command): void {
  addOptions(
    program
      .command('get')
      .argument(
        '<id>',
        'entry id, e.g. DECISION-20261121-move-event-store-to-postgresql, or a prefix only one id has (any case)',
      )
      .description('print one entry with its file and line'),
    COMMAND_OPTIONS.get,
  )
    .addHelpText(
      'after',
      '\nExamples:\n  mem get RULE-20261120-every-migration-needs-a-rollback-script\n  mem get DECISION-20261121-放弃-redis-缓存-改用本地-lru --json\n  mem get rule-20261120-cap  # a prefix in any case, when only one id has it',
    )
    .action(async (id: string, _o: unknown, cmd: Command) => getCommand(id, cmd.optsWithGlobals<GlobalOptions>()));
}
