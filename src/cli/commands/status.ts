/** `mem status [--strict] [--fix]`: the workspace's health on one screen (docs/operations.md). */
import type { Command } from 'commander';
import { commandContext, type GlobalOptions } from '../context.js';
import { MemError } from '../../core/errors.js';
import { collectStatus } from '../../status/collect.js';
import { applyFixes } from '../../status/fix.js';
import { renderStatus } from '../../status/render.js';
import { count } from '../../core/count.js';

export function registerStatus(program: Command): void {
  program
    .command('status')
    .description('jobs (last run, next run), locks, index freshness, providers and governance checks; read-only unless --fix')
    .option('--strict', 'exit 1 when a governance threshold is exceeded or the last run of a job failed (for cron mail)')
    .option('--fix', 'apply the safe governance actions: split oversized daily files into memory/recent/, summaries into volumes')
    .addHelpText('after', '\nExamples:\n  mem status\n  mem status --json | jq .problems\n  mem status --strict || echo "memfold needs attention"\n  mem status --fix\n\nThe --json schema is documented in docs/operations.md.')
    .action(async (o: { strict?: boolean; fix?: boolean }, cmd: Command) => {
      const { workspace, loaded, now: at, out } = commandContext(cmd.optsWithGlobals<GlobalOptions>());
      const fixed = o.fix ? await applyFixes(workspace, loaded.config) : undefined;
      const now = at.toJSDate();
      const report = await collectStatus(workspace, loaded, now);
      out.json(fixed ? { ...report, fixed } : report);
      if (fixed) {
        for (const s of fixed.dailySplits) out.line(`fixed: moved ${s.moved} entries of ${s.daily} into ${s.into.join(', ')}`);
        for (const s of fixed.summaryVolumes) out.line(`fixed: split ${s.summary} into volumes ${s.volumes.join(', ')}`);
        for (const s of fixed.summariesKept) out.line(`fix: left ${s.summary} whole: ${s.reason}`);
        if (!fixed.dailySplits.length && !fixed.summaryVolumes.length && !fixed.summariesKept.length) out.line('fix: nothing to split');
      }
      // -q (cron mail): the screen only when something needs attention.
      if (!out.opts.quiet || report.problems.length) out.result(renderStatus(report, now));
      if (o.strict && report.problems.length) {
        throw new MemError('STATUS_PROBLEMS', `status --strict: ${count(report.problems.length, 'problem')} (first: ${report.problems[0]})`);
      }
    });
}
