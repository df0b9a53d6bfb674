/**
 * The `mem` entry point: the only place that prints errors and chooses exit codes (STYLE §3).
 * Exit codes: 0 ok, 1 error, 2 usage, 3 lock busy or job timeout, 4 config or workspace, 5 problems found.
 */
import { Command, CommanderError } from 'commander';
import { describeError, EXIT, exitCodeOf } from '../core/errors.js';
import { commandName, COMMANDS, JOB_COMMANDS } from './commands.js';
import { c } from '../terminal/output.js';
import { VERSION } from '../core/version.js';
import { addOptions, GLOBAL_OPTIONS } from './options.js';

/** The program with the named command registered, or every command (help, unknown words). */
export async function buildProgram(name: string | undefined): Promise<Command> {
  const program = addOptions(
    new Command('mem')
      .description('memfold: long-term memory for AI agents, as plain Markdown you commit to git')
      .version(VERSION),
    GLOBAL_OPTIONS,
  )
    // Usage errors are one line like every other error: commander's message (and its "Did you mean"), then the hint.
    .configureOutput({
      outputError: (str, write) =>
        write(
          `${c.red('mem:')} ${str
            .replace(/^error: /, '')
            .trim()
            .split('\n')
            .join(' ')} (run "mem --help" for usage)\n`,
        ),
    })
    .exitOverride();
  program.addHelpText(
    'after',
    [
      '\nExamples:',
      '  mem init ~/memory --git                # a workspace, with the merge driver, its post-merge step and the pre-commit secret check',
      '  mem -C ~/memory microsync --since 2d   # settled knowledge from the last two days of sessions',
      '  mem search "why did we move the event store"',
      '  mem remember "Deploys happen on Tuesdays only" --kind rule',
      '  mem status',
      "  mem help search                        # each command's options and examples",
    ].join('\n'),
  );
  program.addHelpText(
    'after',
    '\nExit codes: 0 ok, 1 error, 2 usage, 3 lock busy or job timeout, 4 config or workspace problem, 5 problems found (lint; compound: pinned text over limits.memoryLines)',
  );
  const versionOnly = !name && process.argv.some((a) => a === '-V' || a === '--version');
  const loaders = name ? [COMMANDS[name]!] : versionOnly ? [] : Object.values(COMMANDS);
  for (const load of loaders) (await load())(program);
  for (const cmd of program.commands) cmd.exitOverride();
  return program;
}

export async function main(argv: string[]): Promise<number> {
  const name = commandName(argv.slice(2));
  // Job commands leave a line in the job log (src/daemon/job-hook.ts); other commands never load it.
  const hook = name && JOB_COMMANDS.has(name) ? await import('./job-hook.js') : undefined;
  try {
    const program = await buildProgram(name);
    hook?.instrumentJobCommands(program);
    await program.parseAsync(argv);
    return EXIT.ok;
  } catch (err) {
    await hook?.finishJobRun(err);
    if (err instanceof CommanderError) {
      return err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help'
        ? EXIT.ok
        : EXIT.usage;
    }
    process.stderr.write(`${c.red('mem:')} ${describeError(err)}\n`);
    if (process.env.MEM_DEBUG && err instanceof Error) process.stderr.write(`${err.stack}\n`);
    return exitCodeOf(err);
  }
}
