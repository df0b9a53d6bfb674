/**
 * `mem status --fix`, the doing half: applies the plans of fix-plan.ts through the WorkspaceWriter
 * as the `status-fix` job (DESIGN §2: splits into memory/recent/, summary volumes; never MEMORY.md).
 * Order makes it crash-safe: split-outs are written first, the daily file shrinks last, so a run
 * killed in between leaves entries in two places (found by their text and fixed by the next --fix),
 * never in none. Only what a split-out holds leaves the daily file.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config/schema.js';
import { defaultLockOptions } from '../write/defaults.js';
import { WorkspaceWriter } from '../write/writer.js';
import { landedIn, mergeIntoTarget, planDailySplit, planSummaryVolumes, shrinkDaily } from './fix-plan.js';

export interface FixResult {
  dailySplits: Array<{ daily: string; moved: number; into: string[] }>;
  summaryVolumes: Array<{ summary: string; volumes: string[] }>;
}

export async function applyFixes(workspace: string, config: Config): Promise<FixResult> {
  const writer = new WorkspaceWriter(workspace, 'status-fix', defaultLockOptions(config));
  const result: FixResult = { dailySplits: [], summaryVolumes: [] };
  const memDir = path.join(workspace, 'memory');
  const dailies = (fs.existsSync(memDir) ? fs.readdirSync(memDir) : []).filter((n) => /^\d{4}-\d{2}-\d{2}\.md$/.test(n)).sort();
  for (const name of dailies) {
    const daily = `memory/${name}`;
    const plan = planDailySplit(daily, fs.readFileSync(path.join(workspace, daily), 'utf8'), config.limits.entriesPerDailyFile);
    if (!plan) continue;
    const moved = new Map<string, number>();
    for (const [target, blocks] of plan.targets) {
      let after = '';
      await writer.update(target, (cur) => {
        const next = mergeIntoTarget(cur, path.basename(target, '.md'), blocks);
        after = next ?? cur ?? '';
        return next;
      });
      for (const [key, n] of landedIn(after, blocks)) moved.set(key, (moved.get(key) ?? 0) + n);
    }
    const links = [...plan.targets.keys()].map((t) => t.replace(/^memory\//, ''));
    await writer.update(daily, (cur) => (cur === undefined ? undefined : shrinkDaily(cur, moved, links)));
    result.dailySplits.push({ daily, moved: [...moved.values()].reduce((a, b) => a + b, 0), into: [...plan.targets.keys()] });
  }
  const sumDir = path.join(workspace, 'second-brain', 'summaries');
  for (const name of (fs.existsSync(sumDir) ? fs.readdirSync(sumDir) : []).filter((n) => n.endsWith('.md') && !n.startsWith('.')).sort()) {
    const rel = `second-brain/summaries/${name}`;
    const text = fs.readFileSync(path.join(workspace, rel), 'utf8');
    if (text.split('\n').length - 1 < config.limits.summaryLines) continue;
    const vols = planSummaryVolumes(text, config.limits.summaryLines);
    const base = name.replace(/\.md$/, '');
    const names = vols.map((_, i) => (i ? `${base}-vol${i + 1}.md` : name));
    // Later volumes first, the original last: a crash leaves the full original in place.
    for (let i = vols.length - 1; i >= 0; i--) {
      const next = names[i + 1];
      const body = next ? `${vols[i]!}\nContinued in [${next}](${next})\n` : vols[i]!;
      if (i) await writer.write(`second-brain/summaries/${names[i]!}`, body);
      else await writer.update(rel, () => body);
    }
    result.summaryVolumes.push({ summary: rel, volumes: names.slice(1).map((n) => `second-brain/summaries/${n}`) });
  }
  return result;
}
