/**
 * `mem search "<query>"`: answers from the persisted index and writes nothing, ever. This file only
 * declares the command for commander (help, errors); the body is src/cli/search-command.ts, which
 * imports the search code only when it runs (and a lexical query never loads remark, openai or chokidar).
 */
import type { Command } from 'commander';
import type { GlobalOptions } from '../context.js';
import { searchCommand, type SearchFlags } from '../search-command.js';

export function registerSearch(program: Command): void {
  program
    .command('search')
    .argument('<query...>', 'words to look for (any language; Traditional and Simplified Chinese match each other)')
    .description('search the memory (warm tier first, cold when needed); reads only, never writes')
    .option('-k, --k <n>', 'number of results, 1-50 (default: search.k from the config, else 6)')
    .option('--deep', 'search the cold tier (archive, extra paths) too, ranked together with the warm tier')
    .option('--since <when>', 'only chunks dated on or after: 30m, 3h, 2d, 1w, an ISO date, or all')
    .option('--until <when>', 'only chunks dated on or before (same forms as --since)')
    .option('--kind <kind>', 'only entries of this kind: decision, rule, architecture (arch), note, preference (pref), goal, task, lesson')
    .option('--status <status>', 'only entries with this status: active, superseded, archived, retracted')
    .option('--scope <scope>', 'only entries with this scope, e.g. project:shop')
    .option('--path <glob>', 'only files matching this glob, e.g. "memory/2026-11-*.md" or "**/projects/**"')
    .option('--lexical-only', 'skip embeddings even when configured (BM25 only)')
    .option('--archive', 'search the raw transcripts instead (the archive tier, built by `mem archive`; see docs/archive.md)')
    .option('--source <name>', 'with --archive: only this configured source')
    .option('--session <id>', 'with --archive: only this session')
    .addHelpText('after', [
      '',
      'Examples:',
      '  mem search "why did we move the event store"',
      '  mem search 为什么放弃 Redis 缓存 -k 3',
      '  mem search postgres --kind decision --since 2w --json',
      '  mem search "rollback script" --deep --path "memory/**"',
      '',
      'Exit codes: 0 with or without results, 2 for an empty query or a bad option. See docs/search.md.',
    ].join('\n'))
    // The body is shared with the lean entry (src/cli/entry.ts), which answers without commander.
    .action(async (words: string[], flags: SearchFlags, cmd: Command) => {
      await searchCommand(words, flags, cmd.optsWithGlobals<GlobalOptions>());
    });
}
