/** `mem microsync`: append settled knowledge from recent transcripts to today's daily files. */
import { Option, type Command } from 'commander';
import { commandContext, type GlobalOptions } from '../context.js';
import { c } from '../../terminal/output.js';
import { renderEntry } from '../../entries/render.js';
import type { MicrosyncResult } from '../../jobs/microsync/options.js';
import { runMicrosync } from '../../jobs/microsync/run.js';
import { refreshIndex } from './refresh-index.js';
import { count } from '../../core/count.js';

export function summary(r: MicrosyncResult): string {
  const entries = r.dryRun ? r.plan.entries.length : r.added.length;
  const parts = [
    `${count(r.sessions, 'session')} read (${count(r.files, 'file')})`,
    count(r.turns, 'turn'),
    `${count(entries, 'entry', 'entries')} ${r.dryRun ? 'would be added' : 'added'}`,
    `${r.plan.skipped.length} skipped as ${r.plan.skipped.length === 1 ? 'a duplicate' : 'duplicates'}`,
    ...(r.plan.forgotten ? [`${r.plan.forgotten} held back as hard-forgotten`] : []),
  ];
  if (r.malformed) parts.push(`${count(r.malformed, 'malformed line')} skipped`);
  if (r.redacted) parts.push(`${count(r.redacted, 'secret')} redacted`);
  if (r.skippedSessions.length) parts.push(`${count(r.skippedSessions.length, 'bot/scheduler session')} skipped`);
  if (r.llm)
    parts.push(
      r.dryRun
        ? `LLM: would use ~${count(r.llm.estimatedCalls, 'call')}, ~${count(r.llm.estimatedTokens, 'token')}`
        : `LLM: ${count(r.llm.calls, 'call')}, ${count(r.llm.tokens, 'token')}${r.llm.stoppedByBudget ? ' (budget reached: the rest is read next run)' : ''}`,
    );
  return `microsync: ${parts.join(', ')}`;
}

/**
 * What the window left unread and how to read it, when the user chose the window or it was the
 * first run's 24 hours (a scheduled run after that would repeat it for every old transcript).
 */
export function outsideLine(r: MicrosyncResult, since: string | undefined): string | undefined {
  if (!r.backfill || (since === undefined && !r.window.firstRun)) return undefined;
  const what = [
    ...(r.outside.turns ? [`${count(r.outside.turns, 'turn')} dated before the window`] : []),
    ...(r.outside.files ? [`${count(r.outside.files, 'transcript')} unchanged since it began`] : []),
  ].join(' and ');
  const window = since === undefined ? 'the first run reads the last 24 hours' : `the window is --since ${since}`;
  return `not read: ${what} (${window}); "${r.backfill}" reads them (ids keep it idempotent)`;
}

/** One line per source for `-v`. */
export function sourceLines(r: MicrosyncResult): string[] {
  return r.bySource.map(
    (s) =>
      `${s.source}: ${count(s.files, 'file')}, ${count(s.sessions, 'session')} read, ${count(s.turns, 'turn')}` +
      `${s.outsideTurns ? `; ${count(s.outsideTurns, 'turn')} before the window` : ''}${s.outsideFiles ? `; ${count(s.outsideFiles, 'file')} unchanged since it began, not opened` : ''}`,
  );
}

export function registerMicrosync(program: Command): void {
  program
    .command('microsync')
    .description(
      'read new transcript turns and append settled knowledge (decisions, rules, architecture, "remember this") to memory/YYYY-MM-DD.md',
    )
    .option(
      '--since <when>',
      'window: 30m, 3h, 2d, 1w, an ISO date/time, or "all" (default: since the last run; first run 24h, and it says what it left out)',
    )
    .option('--source <name>', 'read only this configured source')
    .option('--dry-run', 'print the entries it would write, and write nothing')
    .addOption(new Option('--no-llm', 'use the offline rule-based extractor even when an LLM is configured'))
    .addHelpText(
      'after',
      '\nExamples:\n  mem microsync\n  mem microsync --since 2d --dry-run\n  mem microsync --since all                     # back-fill everything; ids keep it idempotent\n  mem microsync --since all --source claude\n  mem microsync -v                              # per-source counts on stderr\n  mem microsync --now 2026-11-21T22:00 --json    # replay as of a moment',
    )
    .action(async (o: { since?: string; source?: string; dryRun?: boolean; llm: boolean }, cmd: Command) => {
      const { workspace, loaded, now, out } = commandContext(cmd.optsWithGlobals<GlobalOptions>());
      if (!loaded.config.sources.length)
        out.warn('no sources configured in mem.config.json; add one (see "mem init --detect")');
      const r = await runMicrosync({
        workspace,
        loaded,
        now,
        dryRun: !!o.dryRun,
        useLlm: o.llm,
        ...(o.since !== undefined ? { since: o.since } : {}),
        ...(o.source ? { source: o.source } : {}),
        warn: (m) => out.warn(m),
        progress: (m) => out.progress(m),
      });
      out.endProgress();
      if (r.added.length) await refreshIndex(workspace, loaded, out);
      if (!r.dryRun) {
        // Does nothing for a workspace that keeps no archive; the archive code loads only when it does.
        const a = await (await import('../../archive/refresh.js')).refreshArchive(workspace, loaded);
        if (a.warning) out.warn(a.warning);
        if (a.line) out.info(a.line);
      }
      out.json({
        ...r,
        plan: undefined,
        wouldAdd: r.dryRun
          ? r.plan.entries.map((e) => ({ id: e.id, day: e.day, markdown: renderEntry(e.entry) }))
          : undefined,
        skipped: r.plan.skipped,
        forgotten: r.plan.forgotten,
      });
      if (r.dryRun)
        for (const e of r.plan.entries) out.result(`${c.dim(`# memory/${e.day}.md`)}\n${renderEntry(e.entry)}`);
      else if (out.opts.verbose) for (const a of r.added) out.info(`added ${a.id} to ${a.file}`);
      for (const l of sourceLines(r)) out.info(l);
      out.line(summary(r));
      const outside = outsideLine(r, o.since);
      if (outside) out.line(outside);
    });
}
