/**
 * `mem wrapup`: one calendar day → second-brain/summaries/YYYY-MM-DD-wrapup.md (DESIGN §2, §7).
 * Order: consolidation lock and wrapup lock; a microsync catch-up for the day so late sessions are
 * in; read the day's entries and sessions; decide the sections (rules, or a validated LLM answer);
 * write only under second-brain/summaries/. Never MEMORY.md, never a daily file (the writer refuses).
 * A day with no entry and no session but bots' writes nothing (issue 31): a file of six "(none)"
 * committed every idle day, then cited by compound, is noise that looks like memory.
 */
import { DateTime } from 'luxon';
import { getField, getSource } from '../../entries/model.js';
import { garbledMessage, loadUtf8Entries } from '../../entries/store.js';
import { runBudget, spentOf } from '../../extract/llm-budget.js';
import { defaultLockOptions } from '../../write/defaults.js';
import { toLf } from '../../write/line-endings.js';
import { editedSincePlanned, WorkspaceWriter } from '../../write/writer.js';
import { budgetSpent, type LlmSpending } from '../compound/llm-call.js';
import { resolveDay, WRAPUP_GENERATOR, type WrapupOptions, type WrapupResult } from './options.js';
import { faultPause, withConsolidationLock } from '../consolidation-lock.js';
import { catchUp as runCatchUp } from '../microsync/catch-up.js';
import { createHash } from 'node:crypto';
import type { EntryRecord } from '../../entries/store.js';
import { assertSummariesFolder, placeWrapup, sameInputWrapup, SUMMARIES_DIR } from './place.js';
import { volumeName } from './render.js';
import type { DaySession } from './sessions.js';
import { buildSections, isRetracted, SECTION_KEYS, type SectionKey } from './sections.js';
import { readDaySessions } from './sessions.js';
import { summariseWithLlm } from './llm.js';
import { loadForgotten } from '../forgotten.js';
import { withoutForgotten } from './forgotten-turns.js';
import os from 'node:os';
import { citesSession, hostWord, sessionSections, withoutGoalRepeats } from './per-session.js';
import { sessionStory } from './session-story.js';
import type { Sections } from './sections.js';

/** What a wrap-up is made from; recorded in its front matter as `input:`. */
export function inputKey(day: string, entries: EntryRecord[], sessions: DaySession[], mode: string): string {
  const data = [
    day,
    mode,
    entries.map((r) => [r.id, r.entry.title, getField(r.entry, 'status') ?? '']),
    sessions.map((s) => [s.sessionId, s.turns.map((t) => [t.index, t.role, t.text])]),
  ];
  return createHash('sha256').update(JSON.stringify(data)).digest('hex').slice(0, 16);
}

/** Bullets by list; a told session counts once among the conversations, whatever it holds. */
function countsOf(sections: Sections, told: number): Record<SectionKey, number> {
  const counts = Object.fromEntries(SECTION_KEYS.map((k) => [k, sections[k].length])) as Record<SectionKey, number>;
  return { ...counts, conversations: sections.conversations.filter((b) => !citesSession(b)).length + told };
}

export async function runWrapup(opts: WrapupOptions): Promise<WrapupResult> {
  const { config, zone } = opts.loaded;
  const day = resolveDay(opts.date, opts.now);
  const start = DateTime.fromISO(day, { zone }).startOf('day');
  const end = start.plus({ days: 1 });
  const locks = defaultLockOptions(config);
  return withConsolidationLock(opts.workspace, 'wrapup', locks, async (jobLock) => {
    // One budget for the whole run: the catch-up spends from it first (README: per-run caps).
    const llmRun = opts.useLlm && config.llm ? { cfg: config.llm, budget: runBudget(config.llm) } : undefined;
    let catchUp: WrapupResult['catchUp'] = null;
    if (!opts.dryRun) {
      assertSummariesFolder(opts.workspace, volumeName(day, 1, 1));
      catchUp = await runCatchUp({ ...opts, ...(llmRun ? { budget: llmRun.budget } : {}) }, start);
    }
    // A file that is not UTF-8 would put U+FFFD into the summary for good: its entries that hold such bytes wait until it is converted.
    const { records, garbled } = await loadUtf8Entries(opts.workspace);
    for (const g of garbled)
      if (getField(g.record.entry, 'date') === day)
        opts.warn(`wrapup ${day}: ${garbledMessage(g, 'it was left out of the summary')}`);
    const entries = records.filter((r) => r.id);
    const read = await readDaySessions(opts.workspace, config, start, end);
    const sessions = withoutForgotten(read.sessions, day, loadForgotten(opts.workspace));
    // An entry that came from a scheduler or bot session is not part of the day's story.
    const bots = new Set(read.skipped.map((s) => s.sessionId));
    // A retracted entry (`mem forget`) is never published again; superseded and archived ones were still decided that day.
    const dayEntries = entries.filter(
      (r) => getField(r.entry, 'date') === day && !isRetracted(r) && !bots.has(getSource(r.entry)?.session_id ?? ''),
    );
    let asked: Pick<LlmSpending, 'rejected' | 'stoppedByBudget'> = { rejected: [], stoppedByBudget: false };
    const spending = () => (llmRun ? { ...spentOf(llmRun.cfg, llmRun.budget), ...asked } : null);
    if (!sessions.length && !dayEntries.length) {
      const none = countsOf(
        { decisions: [], actions: [], conversations: [], technical: [], openLoops: [], nextSteps: [] },
        0,
      );
      return {
        date: day,
        idle: true,
        files: [],
        written: [],
        unchanged: [],
        keptEdited: [],
        sessions: [],
        skippedSessions: read.skipped,
        counts: none,
        generator: `${WRAPUP_GENERATOR} (rules)`,
        catchUp,
        llm: spending(),
        redacted: read.redacted,
        dryRun: !!opts.dryRun,
      };
    }
    let sections = buildSections(day, dayEntries, entries, sessions);
    let generator = `${WRAPUP_GENERATOR} (rules)`;
    const llmWanted = llmRun && (sessions.length || dayEntries.length) ? llmRun : undefined;
    const key = inputKey(day, dayEntries, sessions, llmWanted ? `llm:${llmWanted.cfg.model}` : 'rules');
    const kept = llmWanted && !opts.dryRun ? sameInputWrapup(opts.workspace, day, key) : undefined;
    if (kept && llmWanted) {
      const counts = countsOf(
        sections,
        sessionSections(sections, sessions.map(sessionStory), sessions, dayEntries, '', zone).length,
      );
      return {
        date: day,
        idle: false,
        files: kept,
        written: [],
        unchanged: kept,
        keptEdited: [],
        sessions: sessions.map((s) => s.sessionId),
        skippedSessions: read.skipped,
        counts,
        generator: `${WRAPUP_GENERATOR} (llm ${llmWanted.cfg.model})`,
        catchUp,
        llm: spending(),
        redacted: read.redacted,
        dryRun: false,
      };
    }
    if (llmWanted) {
      const r = await summariseWithLlm({
        ...llmWanted,
        day,
        entries: dayEntries,
        sessions,
        ...(opts.apiKey ? { apiKey: opts.apiKey } : {}),
        dryRun: !!opts.dryRun,
      });
      asked = { rejected: r.rejected, stoppedByBudget: r.stoppedByBudget };
      for (const why of r.rejected) opts.warn(`wrapup ${day}: LLM answer rejected: ${why}`);
      if (r.stoppedByBudget) opts.warn(budgetSpent(`wrapup ${day}`, llmWanted.cfg, llmWanted.budget));
      if (r.value) {
        sections = r.value;
        generator = `${WRAPUP_GENERATOR} (llm ${llmWanted.cfg.model})`;
      } else if (!opts.dryRun) opts.warn(`wrapup ${day}: using the rule-based summary`);
    }
    const stories = sessions.map(sessionStory);
    sections = withoutGoalRepeats(sections, stories);
    const perSession = sessionSections(sections, stories, sessions, dayEntries, hostWord(os.hostname()), zone);
    const doc = {
      day,
      sessions: sessions.map((s) => s.sessionId),
      generator,
      perSession,
      inputKey: generator.includes('(rules)') ? inputKey(day, dayEntries, sessions, 'rules') : key,
      sections,
    };
    const placed = placeWrapup(opts.workspace, doc, config.limits.summaryLines);
    const tooLong = placed.files.find((f) => f.text.split('\n').length - 1 >= config.limits.summaryLines);
    if (tooLong)
      opts.warn(
        `wrapup ${day}: limits.summaryLines (${config.limits.summaryLines}) leaves no room beside the front matter of ${doc.sessions.length} sessions; wrote ${SUMMARIES_DIR}/${tooLong.name} over the limit`,
      );
    const beside = `${SUMMARIES_DIR}/${placed.files[0]!.name}`;
    const besideDone =
      placed.unchanged.length === placed.files.length
        ? `the summary beside it, ${beside}, is up to date`
        : `wrote the new summary beside it as ${beside}`;
    for (const f of placed.keptEdited) opts.warn(`${f} was edited by hand; kept it and ${besideDone}`);
    const result: WrapupResult = {
      date: day,
      idle: false,
      files: placed.files.map((f) => `${SUMMARIES_DIR}/${f.name}`),
      written: [],
      unchanged: placed.unchanged,
      keptEdited: placed.keptEdited,
      sessions: doc.sessions,
      skippedSessions: read.skipped,
      counts: countsOf(sections, perSession.length),
      generator,
      catchUp,
      llm: spending(),
      redacted: read.redacted,
      dryRun: !!opts.dryRun,
    };
    if (opts.dryRun)
      return { ...result, preview: placed.files.map((f) => ({ file: `${SUMMARIES_DIR}/${f.name}`, text: f.text })) };
    await faultPause('wrapup');
    const writer = new WorkspaceWriter(opts.workspace, 'wrapup', locks, jobLock);
    for (const [i, f] of placed.files.entries()) {
      const rel = `${SUMMARIES_DIR}/${f.name}`;
      if (placed.unchanged.includes(rel)) continue;
      // Written only over what was placed on: a person's edit since (or in the check-rename window)
      // is kept, and the run ends FILE_CHANGED (exit 3); the next run sees the edit and writes beside it.
      await writer.update(
        rel,
        (cur) =>
          (cur === undefined ? undefined : toLf(cur)) === placed.seen[i] ? f.text : editedSincePlanned('wrapup', rel),
        { endingsKept: true },
      );
      result.written.push(rel);
    }
    return result;
  });
}
