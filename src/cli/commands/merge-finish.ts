/**
 * `mem merge-finish`: run by the post-merge hook `mem init --git` installs (git/merge-hook.ts), after
 * a `git merge` or `git pull` that renamed an id both machines created. It renames the citations of
 * the old id in the weekly logs, wrap-ups and MEMORY.md the merge took whole from the renamed entry's
 * side (git/merge-finish.ts), one line per file changed, and leaves them in the worktree to commit
 * (git.autoCommit commits them). Nothing recorded: silent, exit 0. A failure is one line; the hook
 * ignores its exit status, as a hook never breaks a merge.
 */
import type { Command } from 'commander';
import { commandContext, type GlobalOptions } from '../context.js';
import { describeError, MemError } from '../../core/errors.js';
import { commitMessage } from '../../git/auto-commit.js';
import { commitAfterMerge } from '../../git/commit-after-merge.js';
import { finishMerge } from '../../git/merge-finish.js';
import { defaultLockOptions } from '../../write/defaults.js';

export function registerMergeFinish(program: Command): void {
  program
    .command('merge-finish')
    .description(
      'after a merge (git\'s post-merge hook, set up by "mem init --git"): rename the citations of an id the merge renamed in the weekly logs, wrap-ups and MEMORY.md it took whole from one side',
    )
    .addHelpText(
      'after',
      '\nThe hook runs it; by hand, right after a merge whose merge-driver said "entry is now <id>-2":\n  mem merge-finish\n\nIt reads what the merge driver recorded in $(git rev-parse --git-dir)/memfold-renames and removes it; nothing recorded, nothing to do.',
    )
    .action(async (_o: unknown, cmd: Command) => {
      const { workspace, loaded, out } = commandContext(cmd.optsWithGlobals<GlobalOptions>());
      let r: Awaited<ReturnType<typeof finishMerge>>;
      try {
        r = await finishMerge(workspace, defaultLockOptions(loaded.config));
      } catch (err) {
        throw new MemError(
          'IO',
          `merge-finish: ${describeError(err)}; citations of an id this merge renamed may still name the bare id (docs/operations.md)`,
        );
      }
      out.json(r);
      const commit = loaded.config.git.autoCommit;
      for (const { file, renames } of r.changed)
        out.line(
          `merge-finish: ${file}: ${renames.map(([from, to]) => `${from} → ${to}`).join(', ')} (the merge took it whole from the side whose entry was renamed)${commit ? '' : '; left for you to commit'}`,
        );
      if (r.dropped.length)
        out.warn(
          `merge-finish: ${r.dropped.length === 1 ? 'a rename' : `${r.dropped.length} renames`} recorded by an earlier merge that ended without this hook (${r.dropped.map((d) => `${d.from} → ${d.to}`).join(', ')}) not applied; check the citing files of that merge by hand (docs/operations.md)`,
        );
      const files = r.changed.map((c) => c.file);
      if (files.length && commit) {
        const c = await commitAfterMerge(workspace, files, commitMessage('merge-finish', {}, files));
        if (!c.committed) out.warn(`git.autoCommit skipped: ${c.reason}`);
      }
    });
}
