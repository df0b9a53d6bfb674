/** `mem compound [--week YYYY-Www] [--dry-run] [--revert]`: the weekly rewrite of MEMORY.md. */
import { Option, type Command } from 'commander';
import { commandContext, type GlobalOptions } from '../context.js';
import { runRevert } from '../../jobs/compound/revert.js';
import { runCompound } from '../../jobs/compound/run.js';
import type { CompoundResult } from '../../jobs/compound/options.js';
import { refreshIndex } from './refresh-index.js';
import { count } from '../../core/count.js';

export function compoundSummary(r: CompoundResult): string {
  const parts = [
    `${count(r.items, 'item')} in ${count(r.memoryLines, 'line')}`,
    `${r.promoted.length} promoted`,
    `${r.demoted.length} demoted`,
    `${r.superseded.length} superseded`,
    ...(r.retracted.length ? [`${r.retracted.length} retracted`] : []),
    `${r.suspected.length} suspected conflicts`,
  ];
  if (r.cycles.length) parts.push(`${r.cycles.length} supersedes cycles left alone`);
  if (r.adoptedHandWritten) parts.push('hand-written MEMORY.md kept as a pinned section');
  if (r.llm)
    parts.push(
      `LLM: ${r.llm.calls} calls, ${r.llm.tokens} tokens${r.llm.rejected.length ? `, ${r.llm.rejected.length} answers rejected` : ''}`,
    );
  const what = r.dryRun
    ? 'dry run, nothing written'
    : r.changed
      ? `wrote ${r.written.length} files`
      : 'nothing changed';
  return `compound ${r.week}: ${what}; ${parts.join(', ')}`;
}

export function registerCompound(program: Command): void {
  program
    .command('compound')
    .description(
      'rewrite MEMORY.md from the last complete ISO week (after a microsync catch-up): promote, demote, settle supersessions, log why',
    )
    .option('--week <YYYY-Www>', 'the ISO week to compound (default: the last complete week before --now)')
    .option('--dry-run', 'print the new MEMORY.md as a diff and the planned status flips; write nothing')
    .option(
      '--revert',
      'restore the MEMORY.md the last rewrite replaced (or that of --week); the current one is kept in memory/archive/',
    )
    .addOption(new Option('--no-llm', 'use the rule-based rewrite even when an LLM is configured'))
    .addHelpText(
      'after',
      '\nExamples:\n  mem compound --dry-run\n  mem compound --week 2026-W47 --json\n  mem compound --revert\n\nPinned text between <!-- mem:pinned:start --> and <!-- mem:pinned:end --> is kept verbatim.\nExit 3 when wrapup or another compound holds the consolidation lock past limits.lockWaitMs;\nexit 5, changing nothing, when the pinned text alone is longer than limits.memoryLines.',
    )
    .action(async (o: { week?: string; dryRun?: boolean; revert?: boolean; llm: boolean }, cmd: Command) => {
      const { workspace, loaded, now, out } = commandContext(cmd.optsWithGlobals<GlobalOptions>());
      if (o.revert) {
        const r = await runRevert({ workspace, loaded, now, ...(o.week ? { week: o.week } : {}) });
        if (r.changed) await refreshIndex(workspace, loaded, out);
        out.json(r);
        out.line(
          r.changed
            ? `compound --revert: MEMORY.md restored from ${r.restoredFrom}${r.replacedKeptIn ? `; the one it replaced is kept in ${r.replacedKeptIn}` : ''}`
            : `compound --revert: MEMORY.md already equals ${r.restoredFrom}; nothing changed`,
        );
        return;
      }
      const r = await runCompound({
        workspace,
        loaded,
        now,
        dryRun: !!o.dryRun,
        useLlm: o.llm,
        warn: (m) => out.warn(m),
        ...(o.week ? { week: o.week } : {}),
      });
      if (r.changed || r.catchUp?.added) await refreshIndex(workspace, loaded, out);
      out.json(r);
      if (r.dryRun) {
        for (const f of r.superseded)
          out.result(`would mark ${f.id} superseded in ${f.file} (by ${f.by}: ${f.reason})`);
        for (const f of r.retracted) out.result(`would mark ${f.id} retracted in ${f.file} (${f.reason})`);
        out.result(r.diff || 'MEMORY.md would not change');
      }
      out.line(compoundSummary(r));
    });
}
