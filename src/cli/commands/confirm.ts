/** `mem confirm <id>`: a person confirms an agent's statement, so compound and `mem context` may promote it. */
import type { Command } from 'commander';
import { commandContext, type GlobalOptions } from '../context.js';
import { runConfirm } from '../../jobs/confirm.js';
import { refreshIndex } from './refresh-index.js';

export function registerConfirm(program: Command): void {
  program
    .command('confirm')
    .argument('<id>', 'entry id')
    .description(
      "stand behind an agent's statement (origin agent, e.g. from MCP memory_remember): until then it is never promoted to MEMORY.md or layer 0 of mem context",
    )
    .option('--dry-run', 'say what would change, change nothing')
    .addHelpText(
      'after',
      '\nExamples:\n  mem confirm RULE-20261120-run-the-linter-before-every-commit\n  mem confirm RULE-20261120-run-the-linter-before-every-commit --dry-run --json\n\nEditing the entry\'s origin to "manual" confirms it too.',
    )
    .action(async (id: string, o: { dryRun?: boolean }, cmd: Command) => {
      const { workspace, loaded, now, out } = commandContext(cmd.optsWithGlobals<GlobalOptions>());
      const r = await runConfirm({ workspace, loaded, now, id, dryRun: !!o.dryRun });
      if (r.files.length && !r.dryRun) await refreshIndex(workspace, loaded, out);
      out.json(r);
      if (r.already === 'not-agent')
        out.line(`${id} is not an agent's statement (its origin is user or manual): nothing to confirm`);
      else if (r.already === 'confirmed') out.line(`${id} is already confirmed; nothing changed`);
      else
        out.line(
          `${r.dryRun ? 'would confirm' : 'confirmed'} ${id} in ${r.files.join(', ')}${r.log ? ` (logged in ${r.log})` : ''}; the next "mem compound" may promote it`,
        );
    });
}
