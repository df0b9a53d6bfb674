/** `mem index [--rebuild]`: brings `.mem/index` up to date from dirty files only (docs/search.md). */
import type { Command } from 'commander';
import type { GlobalOptions } from '../context.js';
import { indexCommand, type IndexFlags } from '../index-command.js';
import { addOptions, COMMAND_OPTIONS } from '../options.js';

export function registerIndex(program: Command): void {
  addOptions(
    program
      .command('index')
      .description('update the search index (.mem/index) from changed files only; writes nothing but .mem/'),
    COMMAND_OPTIONS.index,
  )
    .addHelpText(
      'after',
      '\nExamples:\n  mem index\n  mem index --rebuild --json\n\nThe summary line counts files scanned/changed/added/removed, chunks added/removed, embeddings computed vs from cache, and seconds.',
    )
    .action(async (flags: IndexFlags, cmd: Command) => {
      // The full CLI (MEM_LEAN_CLI=0, or options the lean path leaves to it) has luxon and lint loaded: it stores status's summary too.
      await indexCommand(flags, cmd.optsWithGlobals<GlobalOptions>(), { governance: true });
    });
}
