/**
 * The body of `mem status`, shared by commander's action (commands/status.ts) and the fast path
 * (lean-read.ts), so both print the same bytes and exit with the same codes by construction. The
 * configuration is read by loadConfigLean: zod only when its quick check is unsure, and the schedule checked as loadConfig checks it (a bad cron expression is exit 4
 * on both paths). `--fix` loads the fixes only when asked.
 */
import { MemError } from '../core/errors.js';
import { count } from '../core/count.js';
import { collectStatus, readInstalled } from '../status/collect.js';
import { renderStatus } from '../status/render.js';
import { loadConfigLean } from '../config/lean.js';
import { nowText } from '../core/now-text.js';
import { outputFor } from '../terminal/output.js';
import { locateWorkspace } from '../workspace/locate.js';
import type { GlobalOptions } from './context.js';

export interface StatusFlags {
  strict?: boolean;
  fix?: boolean;
}

export async function statusCommand(o: StatusFlags, g: GlobalOptions): Promise<void> {
  // As commandContext (context.ts) resolves them, but luxon (about 20 ms with its first DateTime) only for --now or MEM_NOW.
  const out = outputFor(g);
  const workspace = locateWorkspace(g.workspace);
  const installed = readInstalled(workspace);
  const loaded = await loadConfigLean(workspace, process.env, { schedule: true });
  for (const w of loaded.warnings) out.warn(w);
  const moment = nowText(g);
  const now =
    moment === undefined ? new Date() : (await import('../core/time.js')).resolveNow(moment, loaded.zone).toJSDate();
  const fixed = o.fix ? await (await import('../status/fix.js')).applyFixes(workspace, loaded.config) : undefined;
  // The list of every certain conflict only when printed: the screen counts them.
  const report = await collectStatus(workspace, loaded, now, { allConflicts: !!g.json, installed });
  out.json(fixed ? { ...report, fixed } : report);
  if (fixed) {
    for (const s of fixed.dailySplits)
      out.line(`fixed: moved ${s.moved} entries of ${s.daily} into ${s.into.join(', ')}`);
    for (const s of fixed.summaryVolumes) out.line(`fixed: split ${s.summary} into volumes ${s.volumes.join(', ')}`);
    for (const s of fixed.summariesKept) out.line(`fix: left ${s.summary} whole: ${s.reason}`);
    if (!fixed.dailySplits.length && !fixed.summaryVolumes.length && !fixed.summariesKept.length)
      out.line('fix: nothing to split');
  }
  // -q (cron mail): the screen only when something needs attention.
  if (!out.opts.quiet || report.problems.length) out.result(renderStatus(report, now));
  if (o.strict && report.problems.length) {
    throw new MemError(
      'STATUS_PROBLEMS',
      `status --strict: ${count(report.problems.length, 'problem')} (first: ${report.problems[0]})`,
    );
  }
}
