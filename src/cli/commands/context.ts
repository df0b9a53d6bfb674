/** `mem context`: the layered memory pack an agent reads at session start (stdout; see docs/agents.md). */
import type { Command } from 'commander';
import type { GlobalOptions } from '../context.js';
import { addOptions, COMMAND_OPTIONS } from '../options.js';
import { contextCommand, type ContextFlags } from '../read-commands.js';

export function registerContext(program: Command): void {
  addOptions(
    program
      .command('context')
      .description(
        "print the memory pack for an agent session: core memory (MEMORY.md pinned text and promotions, global rules and preferences), the project's rules, preferences, open tasks, goals and newest decisions, and query hits, within a token budget",
      ),
    COMMAND_OPTIONS.context,
  )
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  mem context',
        '  mem context --scope project:shop --query "deploy rollback" --budget 1200',
        '  MEM_WORKSPACE=~/memory mem context --format json | jq .tokens',
        '  echo \'{"hook_event_name":"SessionStart","cwd":"\'"$PWD"\'"}\' | mem context --hook claude',
        '',
        'The pack is wrapped in <memfold-context>…</memfold-context>, which microsync never extracts again.',
      ].join('\n'),
    )
    // The body is shared with the fast path (read-commands.ts).
    .action(async (o: ContextFlags, cmd: Command) => contextCommand(o, cmd.optsWithGlobals<GlobalOptions>()));
}
