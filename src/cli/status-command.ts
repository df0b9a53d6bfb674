/**
 * The body of `mem status`, shared by commander's action (commands/status.ts) and the fast path
 * (lean-read.ts), so both print the same bytes and exit with the same codes by construction. The
 * configuration is read by loadConfigLean (read-commands.ts readContext): zod only when its quick
 * check is unsure, and the schedule checked as loadConfig checks it (a bad cron expression is exit 4
 * on both paths). `--fix` loads the fixes only when asked.
 */
import { MemError } from '../core/errors.js';
import { count } from '../core/count.js';
import { collectStatus } from '../status/collect.js';
import { renderStatus } from '../status/render.js';
import type { GlobalOptions } from './context.js';
import { readContext } from './read-commands.js';

export interface StatusFlags {
  strict?: boolean;
  fix?: boolean;
}

export async function statusCommand(o: StatusFlags, g: GlobalOptions): Promise<void> {
  const { workspace, loaded, now: at, out } = await readContext(g, { schedule: true });
  const fixed = o.fix ? await (await import('../status/fix.js')).applyFixes(workspace, loaded.config) : undefined;
  const now = at.toJSDate();
  // The list of every certain conflict only when printed: the screen counts them.
  const report = await collectStatus(workspace, loaded, now, { allConflicts: !!g.json });
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
}
