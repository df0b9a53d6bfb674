/** `mem wrapup [--date D]`: the daily wrap-up of one day's sessions and entries. */
import { Option, type Command } from 'commander';
import { commandContext, type GlobalOptions } from '../context.js';
import type { WrapupResult } from '../../jobs/wrapup/options.js';
import { runWrapup } from '../../jobs/wrapup/run.js';
import { refreshIndex } from './refresh-index.js';
import { count } from '../../core/count.js';

export function wrapupSummary(r: WrapupResult): string {
  const c = r.counts;
  if (r.idle) {
    const bots = r.skippedSessions.length ? ` (${count(r.skippedSessions.length, 'bot session')} left out)` : '';
    return `wrapup ${r.date}: nothing to summarise, no entries and no sessions but bots'${bots}; ${r.dryRun ? 'would write' : 'wrote'} nothing`;
  }
  const what = [
    count(c.decisions, 'decision'),
    count(c.actions, 'action item'),
    count(c.conversations, 'conversation'),
    count(c.technical, 'technical note'),
    count(c.openLoops, 'open loop'),
    count(c.nextSteps, 'next step'),
  ].join(', ');
  const files = r.dryRun
    ? `would write ${r.files.join(', ')}`
    : r.written.length
      ? `wrote ${r.written.join(', ')}`
      : `${r.files.join(', ')} unchanged`;
  return `wrapup ${r.date}: ${files} (${count(r.sessions.length, 'session')}; ${what})`;
}

export function registerWrapup(program: Command): void {
  program
    .command('wrapup')
    .description(
      'summarise one day (default: the day before --now) into second-brain/summaries/YYYY-MM-DD-wrapup.md, after a microsync catch-up',
    )
    .option('--date <YYYY-MM-DD>', 'the calendar day to wrap up, in the configured time zone')
    .option('--dry-run', 'print the summary it would write (no catch-up, no write)')
    .addOption(new Option('--no-llm', 'use the rule-based summary even when an LLM is configured'))
    .addHelpText(
      'after',
      '\nExamples:\n  mem wrapup                          # yesterday\n  mem wrapup --date 2026-11-21 --json\n  mem wrapup --now 2026-11-22T06:00 --dry-run\n\nA day with no entries and no sessions but bots\' writes nothing (--json: "idle": true).\nEach told session has its own "### HH:MM <host> <session id>" section: goal, outcome, files changed.\nA summary edited by hand is never overwritten: the new one is written beside it as -v2.\nExit 3 when compound or another wrapup holds the consolidation lock past limits.lockWaitMs.',
    )
    .action(async (o: { date?: string; dryRun?: boolean; llm: boolean }, cmd: Command) => {
      const { workspace, loaded, now, out } = commandContext(cmd.optsWithGlobals<GlobalOptions>());
      const r = await runWrapup({
        workspace,
        loaded,
        now,
        useLlm: o.llm,
        dryRun: !!o.dryRun,
        warn: (m) => out.warn(m),
        ...(o.date ? { date: o.date } : {}),
      });
      if (r.written.length || r.catchUp?.added) await refreshIndex(workspace, loaded, out);
      out.json(r);
      if (r.dryRun) for (const p of r.preview ?? []) out.result(p.text);
      out.line(wrapupSummary(r));
    });
}
