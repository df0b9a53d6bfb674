/** `mem lint`: validate every entry; problems as path:line, exit 5 when there are any. */
import type { Command } from 'commander';
import { commandContext, type GlobalOptions } from '../cli/context.js';
import { MemError } from '../core/errors.js';
import { lintEntries } from '../entries/lint.js';
import { loadEntries } from '../entries/store.js';

export function registerLint(program: Command): void {
  program
    .command('lint')
    .description('check every entry: required fields, id format, status, dangling supersedes, duplicate ids, oversized daily files')
    .addHelpText('after', '\nExamples:\n  mem lint\n  mem lint --json | jq ".problems[].message"')
    .action(async (_o: unknown, cmd: Command) => {
      const { workspace, loaded, out } = commandContext(cmd.optsWithGlobals<GlobalOptions>());
      const records = await loadEntries(workspace);
      const problems = lintEntries(records, { maxEntriesPerDailyFile: loaded.config.limits.entriesPerDailyFile });
      out.json({ entries: records.length, problems });
      for (const p of problems) out.result(`${p.file}:${p.line}: ${p.id ? p.id + ': ' : ''}${p.message}`);
      out.line(`lint: ${records.length} entries, ${problems.length} problem${problems.length === 1 ? '' : 's'}`);
      if (problems.length) throw new MemError('LINT_PROBLEMS', `lint found ${problems.length} problem${problems.length === 1 ? '' : 's'}`);
    });
}
