/**
 * `mem compound`: the weekly rewrite of MEMORY.md (DESIGN §2, §5, §7, §8).
 * Order: consolidation + compound locks; a microsync catch-up for the week; read every entry, the
 * current MEMORY.md and the week's summaries; plan (pure); then write: first the weekly log (the
 * run's intent, so no flip or rewrite ever goes unlogged when a later write fails), then status
 * flips in daily files (all of a file's in one write, under the write lock, on its current text),
 * archive topics, the previous MEMORY.md and the new MEMORY.md. A write that fails stops the run with an error naming
 * what was already written, and a line in the log. A run whose plan equals the files writes nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { DateTime } from 'luxon';
import type { LoadedConfig } from '../../config/load.js';
import { describeError, isMemError, MemError } from '../../core/errors.js';
import { garbledMessage, loadUtf8Entries } from '../../entries/store.js';
import { runBudget, spentOf, type LlmBudget } from '../../extract/llm-budget.js';
import { MEMORY_FILE } from '../../workspace/layout.js';
import { defaultLockOptions } from '../../write/defaults.js';
import { plainText } from '../../write/line-endings.js';
import { editedSincePlanned, WorkspaceWriter } from '../../write/writer.js';
import { faultPause, withConsolidationLock } from '../consolidation-lock.js';
import { catchUp as runCatchUp } from '../microsync/catch-up.js';
import { lineDiff } from './diff.js';
import { flipStatuses } from './flip.js';
import { compoundWithLlm } from './llm.js';
import { budgetSpent, type LlmSpending } from './llm-call.js';
import { addToLastRun, appendRun, logHeader, weeklyLogFile } from '../../governance/weekly-log-file.js';
import { lineCount, PINNED_END, PINNED_START } from '../../entries/memory-md.js';
import { cycleText, planCompound, type CompoundPlan } from './plan.js';
import { previousFile, wrapPrevious } from './previous.js';
import { saysNothing } from '../wrapup/render.js';
import { PROMOTE_MIN } from './rank.js';
import { resolveWeek, type Week } from './week.js';
import { regularFile } from '../../core/regular-file.js';
import { count } from '../../core/count.js';

export const SUSPECTS_FILE = '.mem/suspected-conflicts.json';

export interface CompoundOptions {
  workspace: string;
  loaded: LoadedConfig;
  now: DateTime;
  week?: string;
  dryRun: boolean;
  useLlm: boolean;
  apiKey?: string;
  warn: (msg: string) => void;
}

export interface CompoundResult {
  week: string;
  changed: boolean;
  memoryLines: number;
  items: number;
  promoted: string[];
  demoted: string[];
  superseded: Array<{ id: string; file: string; by: string; reason: string }>;
  /** Entries an appended `retracts` named, flipped to retracted. */
  retracted: Array<{ id: string; file: string; by: string; reason: string }>;
  suspected: Array<{ a: string; b: string; score: number }>;
  /** Supersedes cycles among active entries: reported, never settled. */
  cycles: string[][];
  adoptedHandWritten: boolean;
  written: string[];
  previous: string | null;
  catchUp: { added: number; skipped: string | null } | null;
  /** The run's LLM spending (its catch-up's included), or null when no LLM is used. */
  llm: LlmSpending | null;
  dryRun: boolean;
  diff?: string;
}

export const read = (abs: string) => fs.promises.readFile(abs, 'utf8').catch(() => undefined);

/** The week's wrap-ups worth citing: an idle day has none, and an old one of six "(none)" is left out too. */
async function weekSummaries(workspace: string, week: Week): Promise<string[]> {
  const dir = path.join(workspace, 'second-brain/summaries');
  const names = await fs.promises.readdir(dir).catch(() => [] as string[]);
  const inWeek = names
    .filter((n) => /^\d{4}-\d{2}-\d{2}-wrapup.*\.md$/.test(n) && n.slice(0, 10) >= week.firstDay && n.slice(0, 10) <= week.lastDay)
    .filter((n) => regularFile(path.join(dir, n)))
    .sort();
  const texts = await Promise.all(inWeek.map((n) => read(path.join(dir, n))));
  return inWeek.filter((n, i) => !saysNothing(texts[i] ?? '')).map((n) => `second-brain/summaries/${n}`);
}

type Asked = Pick<LlmSpending, 'rejected' | 'stoppedByBudget'>;

async function plan(opts: CompoundOptions, week: Week, current: string | undefined, budget: LlmBudget | undefined): Promise<{ plan: CompoundPlan; asked: Asked }> {
  const { config } = opts.loaded;
  // A file that is not UTF-8 would put U+FFFD into MEMORY.md for good: its entries that hold such bytes
  // are held back until it is converted (an item they already have stays as written).
  const { records, garbled } = await loadUtf8Entries(opts.workspace);
  const heldBack = new Map(garbled.filter((g) => g.record.id).map((g) => [g.record.id, g.record.file]));
  const llmMode = opts.useLlm && config.llm && !opts.dryRun ? `llm:${config.llm.model}` : undefined;
  const input = { week, records, currentMemory: current, summaries: await weekSummaries(opts.workspace, week), memoryLines: config.limits.memoryLines, mode: llmMode ?? 'rules', heldBack };
  let p = planCompound(input);
  let asked: Asked = { rejected: [], stoppedByBudget: false };
  if (config.llm && llmMode && p.current.inputKey === p.inputKey && current !== undefined) {
    // Same input as the model's last rewrite: keep it rather than ask again for a different wording.
    p = { ...p, memory: current, promoted: [], demoted: [], archived: [], log: p.log.filter((l) => ['superseded', 'retracted', 'blocked', 'cycle', 'suspected', 'held back'].includes(l.what)) };
  } else if (config.llm && llmMode && budget) {
    const r = await compoundWithLlm(config.llm, p.ranked.filter((x) => x.score >= PROMOTE_MIN), opts.apiKey, budget);
    asked = { rejected: r.rejected, stoppedByBudget: r.stoppedByBudget };
    for (const why of r.rejected) opts.warn(`compound ${week.label}: LLM answer rejected: ${why}`);
    if (r.stoppedByBudget) opts.warn(budgetSpent(`compound ${week.label}`, config.llm, budget));
    if (r.value) p = planCompound({ ...input, summariesById: r.value.summaries, archiveTopics: r.value.archive });
    else {
      if (r.rejected.length || r.stoppedByBudget) opts.warn(`compound ${week.label}: using the rule-based rewrite`);
      p = planCompound({ ...input, mode: 'rules' });
    }
  }
  const keptIds = new Set(p.kept.flatMap((w) => w.ids));
  for (const g of garbled) opts.warn(`compound ${week.label}: ${garbledMessage(g, keptIds.has(g.record.id) ? 'its MEMORY.md item was kept as it was' : 'it was left out of MEMORY.md')}`);
  return { plan: p, asked };
}

const suspectsJson = (week: Week, p: CompoundPlan) => JSON.stringify({ week: week.label, suspected: p.conflicts.suspects }, null, 2) + '\n';

/** Flips grouped by file, in their order: each file is read and written once for all its flips. */
const byFile = (flips: CompoundPlan['conflicts']['flips']) => {
  const files = new Map<string, typeof flips>();
  for (const f of flips) {
    const list = files.get(f.file);
    if (list) list.push(f);
    else files.set(f.file, [f]);
  }
  return files;
};

const addOnce = (list: string[], rel: string) => {
  if (!list.includes(rel)) list.push(rel);
};

/** Archive-topic lines (LLM path) not yet in their file: known before anything is written, so an unchanged run writes nothing. */
async function pendingArchiveLines(workspace: string, p: CompoundPlan, week: Week): Promise<Array<{ rel: string; id: string; line: string; header: string }>> {
  const out: Array<{ rel: string; id: string; line: string; header: string }> = [];
  for (const [id, topic] of p.archived) {
    const rel = `memory/archive/${topic}.md`;
    const cur = await read(path.join(workspace, rel));
    if (cur?.includes(`[${id}]`) || out.some((x) => x.rel === rel && x.id === id)) continue;
    const rec = p.ranked.find((r) => r.record.id === id)!.record;
    out.push({
      rel, id,
      line: `- ${rec.entry.title} ([${id}](../${path.posix.relative('memory', rec.file)})) — moved out of MEMORY.md in ${week.label}`,
      header: `# Archive: ${topic}\n\nDetail-level entries demoted from MEMORY.md by \`mem compound\`.\n`,
    });
  }
  return out;
}

export async function runCompound(opts: CompoundOptions): Promise<CompoundResult> {
  const { config } = opts.loaded;
  const week = resolveWeek(opts.week, opts.now);
  const locks = defaultLockOptions(config);
  return withConsolidationLock(opts.workspace, 'compound', locks, async (jobLock) => {
    const writer = new WorkspaceWriter(opts.workspace, 'compound', locks, jobLock);
    // Pinned text saved as Latin-1 would be rewritten, and kept in the previous copy, with U+FFFD: refused before anything is written.
    await writer.checkRewritable(MEMORY_FILE);
    // One budget for the whole run: the catch-up spends from it first (README: per-run caps).
    const budget = opts.useLlm && config.llm ? runBudget(config.llm) : undefined;
    let catchUp: CompoundResult['catchUp'] = null;
    if (!opts.dryRun) {
      catchUp = await runCatchUp({ ...opts, ...(budget ? { budget } : {}) }, week.start);
    }
    const raw = await read(path.join(opts.workspace, MEMORY_FILE));
    // Planned as LF without a byte order mark, written back in the file's own form: a CRLF MEMORY.md
    // is neither rewritten for its endings alone nor given mixed ones.
    const stored = raw === undefined ? undefined : plainText(raw);
    const current = stored?.text;
    const { plan: p, asked } = await plan(opts, week, current, budget);
    const llm = config.llm && budget ? { ...spentOf(config.llm, budget), ...asked } : null;
    for (const c of p.conflicts.cycles) opts.warn(`compound ${week.label}: ${cycleText(c)}`);
    if (lineCount(p.memory) > config.limits.memoryLines) {
      // Items are added only while they fit, so only pinned (or adopted hand-written) text gets here. MEMORY.md is never written over its limit.
      const pinned = p.current.pinned.reduce((n, b) => n + lineCount(b), 0);
      throw new MemError('LINT_PROBLEMS', `MEMORY.md: its pinned${p.current.adoptedLines !== null ? ' and hand-written' : ''} text (${pinned} lines) leaves no room within limits.memoryLines (${config.limits.memoryLines}): shorten the text between ${PINNED_START} and ${PINNED_END} (move detail to memory/projects/) and run again; compound changed no status and did not rewrite MEMORY.md`);
    }
    const result: CompoundResult = {
      week: week.label, changed: false, memoryLines: lineCount(p.memory), items: p.items.length + p.kept.length, promoted: p.promoted, demoted: p.demoted,
      superseded: p.conflicts.flips.filter((f) => f.to === 'superseded').map(({ id, file, by, reason }) => ({ id, file, by, reason })),
      retracted: p.conflicts.flips.filter((f) => f.to === 'retracted').map(({ id, file, by, reason }) => ({ id, file, by, reason })), suspected: p.conflicts.suspects, cycles: p.conflicts.cycles,
      adoptedHandWritten: p.current.adoptedLines !== null, written: [], previous: null, catchUp, llm, dryRun: opts.dryRun,
    };
    if (opts.dryRun) return { ...result, diff: lineDiff(current ?? '', p.memory, ['MEMORY.md', `MEMORY.md (compound ${week.label})`]) };
    await faultPause('compound');
    const archiveLines = await pendingArchiveLines(opts.workspace, p, week);
    const rewrite = p.memory !== current;
    if (!p.conflicts.flips.length && !archiveLines.length && !rewrite) {
      await writer.update(SUSPECTS_FILE, () => suspectsJson(week, p));
      return result;
    }
    if (rewrite && current !== undefined) result.previous = previousFile(week.label);
    // Only the week's first rewrite keeps a copy: a later run in the week would replace the version from before the week.
    const keptAlready = result.previous !== null && (await read(path.join(opts.workspace, result.previous))) !== undefined;
    // The weekly log is written first, as the run's intent: a run stopped part-way (disk full, killed)
    // has already logged every flip and rewrite it may have made; what it did not get to is added below.
    const logFile = weeklyLogFile(week.label);
    const runLabel = opts.now.toISO({ suppressMilliseconds: true }) ?? '';
    const intent: Array<(typeof p.log)[number] | string> = [];
    if (rewrite) intent.push(`rewrite: MEMORY.md rewritten with ${count(result.items, 'item')} in ${count(lineCount(p.memory), 'line')} (limit ${config.limits.memoryLines})${!result.previous ? '' : keptAlready ? `; the one from before this week's first rewrite stays in ${result.previous} (\`mem compound --revert\`)` : `; the previous one is kept in ${result.previous} (\`mem compound --revert\`)`}`);
    await writer.update(logFile, (cur) => appendRun(cur, logHeader(week.label, week.firstDay, week.lastDay), runLabel, [...intent, ...p.log]));
    result.written.push(logFile);
    const after: string[] = [];
    try {
      for (const [file, flips] of byFile(p.conflicts.flips)) {
        let flipped: boolean[] = [];
        const change = (cur: string | undefined) => {
          if (cur === undefined) return undefined;
          // Retractions and supersessions of one file in one write: each flip to its own status.
          let text = cur;
          flipped = flips.map(() => false);
          for (const to of ['superseded', 'retracted'] as const) {
            const at = flips.flatMap((f, i) => (f.to === to ? [i] : []));
            if (!at.length) continue;
            const r = flipStatuses(text, at.map((i) => flips[i]!.id), 'active', to);
            at.forEach((i, j) => (flipped[i] = r.flipped[j]!));
            text = r.text ?? text;
          }
          return text === cur ? undefined : text;
        };
        if (await writer.update(file, change, { endingsKept: true })) result.written.push(file);
        for (const [i, f] of flips.entries()) if (!flipped[i]) after.push(`skipped: ${f.id} in ${f.file} was no longer active when compound came to flip it`);
      }
      for (const { rel, id, line, header } of archiveLines) {
        if (await writer.update(rel, (cur) => (cur?.includes(`[${id}]`) ? undefined : `${(cur ?? header).replace(/\n*$/, '\n')}${line}\n`))) addOnce(result.written, rel);
      }
      if (rewrite) {
        if (result.previous && !keptAlready) {
          await writer.write(result.previous, wrapPrevious(week.label, raw!, new Date()));
          result.written.push(result.previous);
        }
        // Only over the text planned on: a person's edit since (the pinned block) is kept; exit 3.
        await writer.update(MEMORY_FILE, (cur) => ((cur === undefined ? undefined : plainText(cur).text) === current ? (stored ? stored.restore(p.memory) : p.memory) : editedSincePlanned('compound', MEMORY_FILE)), { endingsKept: true });
        result.written.push(MEMORY_FILE);
      }
    } catch (err) {
      // "nothing was written" spoke of the one file that failed; the run had written others.
      const cause = describeError(err).replace(/; (nothing was written|left as it was)$/, '; the file is unchanged');
      const done = result.written.filter((f) => f !== logFile);
      // Best effort: the log already holds the plan; say where it stopped.
      await writer.update(logFile, (cur) => (cur === undefined ? undefined : addToLastRun(cur, [`failed: the run stopped part-way (${cause}); written before that: ${done.length ? done.join(', ') : 'nothing but this log'}; what is not done is planned again by the next run`]))).catch(() => false);
      throw new MemError(isMemError(err) ? err.code : 'WRITE_FAILED', `${cause}. compound ${week.label} stopped part-way; already written: ${[...done, `${logFile} (the run's plan)`].join(', ')}; fix that and run \`mem compound\` again to finish`, { cause: err });
    }
    if (after.length) await writer.update(logFile, (cur) => (cur === undefined ? undefined : addToLastRun(cur, after)));
    result.changed = true;
    await writer.update(SUSPECTS_FILE, () => suspectsJson(week, p));
    return result;
  });
}
