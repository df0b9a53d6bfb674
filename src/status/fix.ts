/**
 * `mem status --fix`, the doing half: applies the plans of fix-plan.ts through the WorkspaceWriter
 * as the `status-fix` job (DESIGN §2: splits into memory/recent/, summary volumes; never MEMORY.md).
 * Order makes it crash-safe: split-outs are written first, the daily file (or summary) shrinks last,
 * so a run killed in between leaves text in two places (found by their text, or a summary's volumes
 * by name and content, and fixed by the next --fix), never in none. Only what a split-out holds leaves the daily file, and a volume is only ever a new
 * file: a split moves text, it never changes, drops or overwrites any.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config/schema.js';
import { splitLines } from '../entries/parse.js';
import { isUntouched } from '../jobs/wrapup/render.js';
import { defaultLockOptions } from '../write/defaults.js';
import { WorkspaceWriter } from '../write/writer.js';
import { landedIn, mergeIntoTarget, planDailySplit, planSummaryVolumes, shrinkDaily, volumeNames } from './fix-plan.js';

export interface FixResult {
  dailySplits: Array<{ daily: string; moved: number; into: string[] }>;
  summaryVolumes: Array<{ summary: string; volumes: string[] }>;
  /** Oversized summaries left as they are, and why (a wrap-up memfold wrote is re-cut by `mem wrapup`). */
  summariesKept: Array<{ summary: string; reason: string }>;
}

/** A folder to list; a missing one, or a file where it should be (ENOTDIR), has nothing to split. */
function isDir(abs: string): boolean {
  try {
    return fs.statSync(abs).isDirectory();
  } catch {
    return false;
  }
}

export async function applyFixes(workspace: string, config: Config): Promise<FixResult> {
  const writer = new WorkspaceWriter(workspace, 'status-fix', defaultLockOptions(config));
  const result: FixResult = { dailySplits: [], summaryVolumes: [], summariesKept: [] };
  const memDir = path.join(workspace, 'memory');
  const dailies = (isDir(memDir) ? fs.readdirSync(memDir) : []).filter((n) => /^\d{4}-\d{2}-\d{2}\.md$/.test(n)).sort();
  for (const name of dailies) {
    const daily = `memory/${name}`;
    const plan = planDailySplit(
      daily,
      fs.readFileSync(path.join(workspace, daily), 'utf8'),
      config.limits.entriesPerDailyFile,
    );
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
    result.dailySplits.push({
      daily,
      moved: [...moved.values()].reduce((a, b) => a + b, 0),
      into: [...plan.targets.keys()],
    });
  }
  const sumDir = path.join(workspace, 'second-brain', 'summaries');
  const taken = new Set(isDir(sumDir) ? fs.readdirSync(sumDir) : []);
  for (const name of [...taken].filter((n) => n.endsWith('.md') && !n.startsWith('.')).sort()) {
    const rel = `second-brain/summaries/${name}`;
    const text = fs.readFileSync(path.join(workspace, rel), 'utf8');
    if (splitLines(text).length < config.limits.summaryLines) continue;
    // Cutting a wrap-up wrapup wrote breaks its content_sha256, and wrapup then takes it for a hand
    // edit and writes the whole day again beside it; re-running wrapup re-cuts it under the limit.
    if (isUntouched(text)) {
      const day = /^(\d{4}-\d{2}-\d{2})-wrapup/.exec(name)?.[1];
      result.summariesKept.push({
        summary: rel,
        reason: `written by mem wrapup; ${day ? `"mem wrapup --date ${day}"` : 'mem wrapup'} re-cuts it into volumes under the limit`,
      });
      continue;
    }
    if (config.limits.summaryLines < 4) {
      result.summariesKept.push({
        summary: rel,
        reason: `limits.summaryLines ${config.limits.summaryLines} leaves no room for a line of text beside the "Continued in" link`,
      });
      continue;
    }
    const vols = planSummaryVolumes(text, config.limits.summaryLines);
    const bodies = (names: string[]) =>
      vols.map((v, i) => (names[i + 1] ? `${v}\nContinued in [${names[i + 1]}](${names[i + 1]})\n` : v));
    // A run stopped before it shrank the original left some of its volumes, under the first free
    // names: those names holding exactly those volumes are this split's, taken up where it stopped.
    const first = volumeNames(name, vols.length, new Set());
    const leftover = bodies(first).every(
      (body, i) => !i || !taken.has(first[i]!) || fs.readFileSync(path.join(sumDir, first[i]!), 'utf8') === body,
    );
    const names = leftover ? first : volumeNames(name, vols.length, taken);
    for (const n of names) taken.add(n);
    // Later volumes first, the original last: a crash leaves the full original in place.
    let complete = true;
    const planned = bodies(names);
    for (let i = vols.length - 1; i >= 0 && complete; i--) {
      const body = planned[i]!;
      const target = `second-brain/summaries/${names[i]!}`;
      // Under the write lock, a volume is written only where no file is (one that appeared meanwhile
      // stays), or found already written by the run that stopped.
      if (i) {
        let already = false;
        const wrote = await writer.update(target, (cur) => {
          already = cur === body;
          return cur === undefined ? body : undefined;
        });
        complete = wrote || already;
      } else complete = await writer.update(rel, (cur) => (cur === text ? body : undefined));
    }
    if (!complete) {
      result.summariesKept.push({
        summary: rel,
        reason:
          'it or a volume name changed while it was being split; left whole (a volume already written repeats part of it)',
      });
      continue;
    }
    result.summaryVolumes.push({ summary: rel, volumes: names.slice(1).map((n) => `second-brain/summaries/${n}`) });
  }
  return result;
}
