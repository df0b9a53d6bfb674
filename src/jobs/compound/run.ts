/**
 * `mem compound`: the weekly rewrite of MEMORY.md (DESIGN §2, §5, §7, §8).
 * Order: consolidation + compound locks; a microsync catch-up for the week; read every entry, the
 * current MEMORY.md and the week's summaries; plan (pure); then write: first the weekly log (the
 * run's intent, so no flip or rewrite ever goes unlogged when a later write fails), then status
 * flips in daily files (all of a file's in one write, under the write lock, on its current text),
 * archive topics, the previous MEMORY.md and the new MEMORY.md. A write that fails stops the run with an error naming
 * what was already written, and a line in the log. A run whose plan equals the files writes nothing.
 */
import path from 'node:path';
import { describeError, isMemError, MemError } from '../../core/errors.js';
import { runBudget, spentOf } from '../../extract/llm-budget.js';
import { MEMORY_FILE } from '../../workspace/layout.js';
import { defaultLockOptions } from '../../write/defaults.js';
import { plainText } from '../../write/line-endings.js';
import { editedSincePlanned, WorkspaceWriter } from '../../write/writer.js';
import { faultPause, withConsolidationLock } from '../consolidation-lock.js';
import { catchUp as runCatchUp } from '../microsync/catch-up.js';
import { lineDiff } from './diff.js';
import { flipStatuses } from './flip.js';
import { addToLastRun, appendRun, logHeader, weeklyLogFile } from '../../governance/weekly-log-file.js';
import { lineCount, PINNED_END, PINNED_START } from '../../entries/memory-md.js';
import type { CompoundPlan } from './plan.js';
import { cycleText } from './reasons.js';
import { pendingArchiveLines, planRun } from './inputs.js';
import { read, type CompoundOptions, type CompoundResult } from './options.js';

import { previousFile, wrapPrevious } from './previous.js';
import { resolveWeek, type Week } from './week.js';
import { count } from '../../core/count.js';

export const SUSPECTS_FILE = '.mem/suspected-conflicts.json';

const suspectsJson = (week: Week, p: CompoundPlan) =>
  JSON.stringify({ week: week.label, suspected: p.conflicts.suspects }, null, 2) + '\n';

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
    const { plan: p, asked } = await planRun(opts, week, current, budget);
    const llm = config.llm && budget ? { ...spentOf(config.llm, budget), ...asked } : null;
    for (const c of p.conflicts.cycles) opts.warn(`compound ${week.label}: ${cycleText(c)}`);
    if (lineCount(p.memory) > config.limits.memoryLines) {
      // Items are added only while they fit, so only pinned (or adopted hand-written) text gets here. MEMORY.md is never written over its limit.
      const pinned = p.current.pinned.reduce((n, b) => n + lineCount(b), 0);
      throw new MemError(
        'LINT_PROBLEMS',
        `MEMORY.md: its pinned${p.current.adoptedLines !== null ? ' and hand-written' : ''} text (${pinned} lines) leaves no room within limits.memoryLines (${config.limits.memoryLines}): shorten the text between ${PINNED_START} and ${PINNED_END} (move detail to memory/projects/) and run again; compound changed no status and did not rewrite MEMORY.md`,
      );
    }
    const result: CompoundResult = {
      week: week.label,
      changed: false,
      memoryLines: lineCount(p.memory),
      items: p.items.length + p.kept.length,
      promoted: p.promoted,
      demoted: p.demoted,
      superseded: p.conflicts.flips
        .filter((f) => f.to === 'superseded')
        .map(({ id, file, by, reason }) => ({ id, file, by, reason })),
      retracted: p.conflicts.flips
        .filter((f) => f.to === 'retracted')
        .map(({ id, file, by, reason }) => ({ id, file, by, reason })),
      suspected: p.conflicts.suspects,
      cycles: p.conflicts.cycles,
      adoptedHandWritten: p.current.adoptedLines !== null,
      written: [],
      previous: null,
      catchUp,
      llm,
      dryRun: opts.dryRun,
    };
    if (opts.dryRun)
      return {
        ...result,
        diff: lineDiff(current ?? '', p.memory, ['MEMORY.md', `MEMORY.md (compound ${week.label})`]),
      };
    await faultPause('compound');
    const archiveLines = await pendingArchiveLines(opts.workspace, p, week);
    const rewrite = p.memory !== current;
    if (!p.conflicts.flips.length && !archiveLines.length && !rewrite) {
      await writer.update(SUSPECTS_FILE, () => suspectsJson(week, p));
      return result;
    }
    if (rewrite && current !== undefined) result.previous = previousFile(week.label);
    // Only the week's first rewrite keeps a copy: a later run in the week would replace the version from before the week.
    const keptAlready =
      result.previous !== null && (await read(path.join(opts.workspace, result.previous))) !== undefined;
    // The weekly log is written first, as the run's intent: a run stopped part-way (disk full, killed)
    // has already logged every flip and rewrite it may have made; what it did not get to is added below.
    const logFile = weeklyLogFile(week.label);
    const runLabel = opts.now.toISO({ suppressMilliseconds: true }) ?? '';
    const intent: Array<(typeof p.log)[number] | string> = [];
    if (rewrite)
      intent.push(
        `rewrite: MEMORY.md rewritten with ${count(result.items, 'item')} in ${count(lineCount(p.memory), 'line')} (limit ${config.limits.memoryLines})${!result.previous ? '' : keptAlready ? `; the one from before this week's first rewrite stays in ${result.previous} (\`mem compound --revert\`)` : `; the previous one is kept in ${result.previous} (\`mem compound --revert\`)`}`,
      );
    await writer.update(logFile, (cur) =>
      appendRun(cur, logHeader(week.label, week.firstDay, week.lastDay), runLabel, [...intent, ...p.log]),
    );
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
            const r = flipStatuses(
              text,
              at.map((i) => flips[i]!.id),
              'active',
              to,
            );
            at.forEach((i, j) => (flipped[i] = r.flipped[j]!));
            text = r.text ?? text;
          }
          return text === cur ? undefined : text;
        };
        if (await writer.update(file, change, { endingsKept: true })) result.written.push(file);
        for (const [i, f] of flips.entries())
          if (!flipped[i])
            after.push(`skipped: ${f.id} in ${f.file} was no longer active when compound came to flip it`);
      }
      for (const { rel, id, line, header } of archiveLines) {
        if (
          await writer.update(rel, (cur) =>
            cur?.includes(`[${id}]`) ? undefined : `${(cur ?? header).replace(/\n*$/, '\n')}${line}\n`,
          )
        )
          addOnce(result.written, rel);
      }
      if (rewrite) {
        if (result.previous && !keptAlready) {
          await writer.write(result.previous, wrapPrevious(week.label, raw!, new Date()));
          result.written.push(result.previous);
        }
        // Only over the text planned on: a person's edit since (the pinned block) is kept; exit 3.
        await writer.update(
          MEMORY_FILE,
          (cur) =>
            (cur === undefined ? undefined : plainText(cur).text) === current
              ? stored
                ? stored.restore(p.memory)
                : p.memory
              : editedSincePlanned('compound', MEMORY_FILE),
          { endingsKept: true },
        );
        result.written.push(MEMORY_FILE);
      }
    } catch (err) {
      // "nothing was written" spoke of the one file that failed; the run had written others.
      const cause = describeError(err).replace(/; (nothing was written|left as it was)$/, '; the file is unchanged');
      const done = result.written.filter((f) => f !== logFile);
      // Best effort: the log already holds the plan; say where it stopped.
      await writer
        .update(logFile, (cur) =>
          cur === undefined
            ? undefined
            : addToLastRun(cur, [
                `failed: the run stopped part-way (${cause}); written before that: ${done.length ? done.join(', ') : 'nothing but this log'}; what is not done is planned again by the next run`,
              ]),
        )
        .catch(() => false);
      throw new MemError(
        isMemError(err) ? err.code : 'WRITE_FAILED',
        `${cause}. compound ${week.label} stopped part-way; already written: ${[...done, `${logFile} (the run's plan)`].join(', ')}; fix that and run \`mem compound\` again to finish`,
        { cause: err },
      );
    }
    if (after.length) await writer.update(logFile, (cur) => (cur === undefined ? undefined : addToLastRun(cur, after)));
    result.changed = true;
    await writer.update(SUSPECTS_FILE, () => suspectsJson(week, p));
    return result;
  });
}
