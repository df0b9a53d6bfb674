/**
 * What a compound run plans from: every entry (files that are not UTF-8 held back), the current
 * MEMORY.md, the week's wrap-ups worth citing, and, with an LLM, the model's summaries and archive
 * topics (the rule-based plan when the model's answer is rejected or the budget is spent); and the
 * archive-topic lines not yet written, known before anything is written so an unchanged run writes
 * nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { garbledMessage, loadUtf8Entries } from '../../entries/store.js';
import type { LlmBudget } from '../../extract/llm-budget.js';
import { regularFile } from '../../core/regular-file.js';
import { saysNothing } from '../wrapup/render.js';
import { compoundWithLlm } from './llm.js';
import { budgetSpent, type LlmSpending } from './llm-call.js';
import { read, type CompoundOptions } from './options.js';
import { planCompound, type CompoundPlan } from './plan.js';
import { PROMOTE_MIN } from './rank.js';
import type { Week } from './week.js';

/** The week's wrap-ups worth citing: an idle day has none, and an old one of six "(none)" is left out too. */
async function weekSummaries(workspace: string, week: Week): Promise<string[]> {
  const dir = path.join(workspace, 'second-brain/summaries');
  const names = await fs.promises.readdir(dir).catch(() => [] as string[]);
  const inWeek = names
    .filter(
      (n) =>
        /^\d{4}-\d{2}-\d{2}-wrapup.*\.md$/.test(n) && n.slice(0, 10) >= week.firstDay && n.slice(0, 10) <= week.lastDay,
    )
    .filter((n) => regularFile(path.join(dir, n)))
    .sort();
  const texts = await Promise.all(inWeek.map((n) => read(path.join(dir, n))));
  return inWeek.filter((n, i) => !saysNothing(texts[i] ?? '')).map((n) => `second-brain/summaries/${n}`);
}

export type Asked = Pick<LlmSpending, 'rejected' | 'stoppedByBudget'>;

export async function planRun(
  opts: CompoundOptions,
  week: Week,
  current: string | undefined,
  budget: LlmBudget | undefined,
): Promise<{ plan: CompoundPlan; asked: Asked }> {
  const { config } = opts.loaded;
  // A file that is not UTF-8 would put U+FFFD into MEMORY.md for good: its entries that hold such bytes
  // are held back until it is converted (an item they already have stays as written).
  const { records, garbled } = await loadUtf8Entries(opts.workspace);
  const heldBack = new Map(garbled.filter((g) => g.record.id).map((g) => [g.record.id, g.record.file]));
  const llmMode = opts.useLlm && config.llm && !opts.dryRun ? `llm:${config.llm.model}` : undefined;
  const input = {
    week,
    records,
    currentMemory: current,
    summaries: await weekSummaries(opts.workspace, week),
    memoryLines: config.limits.memoryLines,
    mode: llmMode ?? 'rules',
    heldBack,
  };
  let p = planCompound(input);
  let asked: Asked = { rejected: [], stoppedByBudget: false };
  if (config.llm && llmMode && p.current.inputKey === p.inputKey && current !== undefined) {
    // Same input as the model's last rewrite: keep it rather than ask again for a different wording.
    p = {
      ...p,
      memory: current,
      promoted: [],
      demoted: [],
      archived: [],
      log: p.log.filter((l) =>
        ['superseded', 'retracted', 'blocked', 'cycle', 'suspected', 'held back'].includes(l.what),
      ),
    };
  } else if (config.llm && llmMode && budget) {
    const r = await compoundWithLlm(
      config.llm,
      p.ranked.filter((x) => x.score >= PROMOTE_MIN),
      opts.apiKey,
      budget,
    );
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
  for (const g of garbled)
    opts.warn(
      `compound ${week.label}: ${garbledMessage(g, keptIds.has(g.record.id) ? 'its MEMORY.md item was kept as it was' : 'it was left out of MEMORY.md')}`,
    );
  return { plan: p, asked };
}

/** Archive-topic lines (LLM path) not yet in their file: known before anything is written, so an unchanged run writes nothing. */
export async function pendingArchiveLines(
  workspace: string,
  p: CompoundPlan,
  week: Week,
): Promise<Array<{ rel: string; id: string; line: string; header: string }>> {
  const out: Array<{ rel: string; id: string; line: string; header: string }> = [];
  for (const [id, topic] of p.archived) {
    const rel = `memory/archive/${topic}.md`;
    const cur = await read(path.join(workspace, rel));
    if (cur?.includes(`[${id}]`) || out.some((x) => x.rel === rel && x.id === id)) continue;
    const rec = p.ranked.find((r) => r.record.id === id)!.record;
    out.push({
      rel,
      id,
      line: `- ${rec.entry.title} ([${id}](../${path.posix.relative('memory', rec.file)})) — moved out of MEMORY.md in ${week.label}`,
      header: `# Archive: ${topic}\n\nDetail-level entries demoted from MEMORY.md by \`mem compound\`.\n`,
    });
  }
  return out;
}
