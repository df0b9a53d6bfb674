/**
 * `mem search "<query>"`: answers from the persisted index and writes nothing, ever. This file only
 * declares the command for commander (help, errors); the body is src/cli/search-command.ts, which
 * imports the search code only when it runs (and a lexical query never loads remark, openai or chokidar).
 */
import type { Command } from 'commander';
import type { GlobalOptions } from '../context.js';
import { searchCommand, type SearchFlags } from '../search-command.js';
import { addOptions, COMMAND_OPTIONS } from '../options.js';

export function registerSearch(program: Command): void {
  addOptions(
    program
      .command('search')
      .argument('<query...>', 'words to look for (any language; Traditional and Simplified Chinese match each other)')
      .description('search the memory (warm tier first, cold when needed); reads only, never writes'),
    COMMAND_OPTIONS.search,
  )
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  mem search "why did we move the event store"',
        '  mem search 为什么放弃 Redis 缓存 -k 3',
        '  mem search postgres --kind decision --since 2w --json',
        '  mem search "rollback script" --deep --path "memory/**"',
        '  mem search "event store" --json --max-chars 2000',
        '',
        'Exit codes: 0 with or without results, 2 for an empty query or a bad option. See docs/search.md.',
      ].join('\n'),
    )
    // The body is shared with the lean entry (src/cli/entry.ts), which answers without commander.
    .action(async (words: string[], flags: SearchFlags, cmd: Command) => {
      await searchCommand(words, flags, cmd.optsWithGlobals<GlobalOptions>());
    });
}
