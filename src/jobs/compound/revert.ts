/**
 * `mem compound --revert`: puts back the MEMORY.md a rewrite replaced (the copy kept last, or that of
 * `--week`), under the same locks as compound. The MEMORY.md it replaces is kept first in
 * `memory/archive/MEMORY-replaced-<time>.md` (pinned hand edits made since are never lost), and the
 * week's log records the revert.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { DateTime } from 'luxon';
import { MemError } from '../../core/errors.js';
import { MEMORY_FILE } from '../../workspace/layout.js';
import { defaultLockOptions } from '../../write/defaults.js';
import { WorkspaceWriter } from '../../write/writer.js';
import { withConsolidationLock } from '../consolidation-lock.js';
import { appendRun, weeklyLogFile } from '../../governance/weekly-log-file.js';
import { lastKept, PREVIOUS_PREFIX, previousFile, REPLACED_PREFIX, unwrapPrevious, wrapReplaced } from './previous.js';
import { read, type CompoundOptions } from './options.js';
import { resolveWeek } from './week.js';

export async function runRevert(
  opts: Pick<CompoundOptions, 'workspace' | 'loaded' | 'now' | 'week'>,
): Promise<{ restoredFrom: string; changed: boolean; replacedKeptIn: string | null }> {
  const locks = defaultLockOptions(opts.loaded.config);
  return withConsolidationLock(opts.workspace, 'compound', locks, async (jobLock) => {
    const rel = opts.week
      ? previousFile(resolveWeek(opts.week, opts.now).label)
      : lastKept(await keptCopies(opts.workspace));
    const wrapped = rel ? await read(path.join(opts.workspace, rel)) : undefined;
    if (!rel || wrapped === undefined)
      throw new MemError(
        'NOT_FOUND',
        `nothing to revert: no ${opts.week ? rel : `${PREVIOUS_PREFIX}*.md`} (compound keeps one when it rewrites MEMORY.md)`,
      );
    const text = unwrapPrevious(wrapped);
    if (text === undefined)
      throw new MemError('IO', `${rel} is not a MEMORY.md copy memfold can read (its fenced block was changed)`);
    const current = await read(path.join(opts.workspace, MEMORY_FILE));
    if (current === text) return { restoredFrom: rel, changed: false, replacedKeptIn: null };
    const writer = new WorkspaceWriter(opts.workspace, 'compound', locks, jobLock);
    // The file being replaced may hold pinned hand edits made since the rewrite: keep it first.
    const replaced = current === undefined ? null : wrapReplaced(rel, current);
    const kept = replaced === null ? null : await keepReplaced(opts.workspace, opts.now, replaced);
    if (kept) await writer.write(kept, replaced!);
    await writer.write(MEMORY_FILE, text);
    const label = /MEMORY-before-(.+)\.md$/.exec(rel)![1]!;
    await writer.update(weeklyLogFile(label), (cur) =>
      appendRun(cur, `# Weekly log ${label}\n`, opts.now.toISO({ suppressMilliseconds: true }) ?? '', [
        `reverted: MEMORY.md restored from ${rel} by \`mem compound --revert\`${kept ? `; the MEMORY.md it replaced is kept in ${kept}` : ''}`,
      ]),
    );
    return { restoredFrom: rel, changed: true, replacedKeptIn: kept };
  });
}

/** Every `MEMORY-before-*.md` copy in memory/archive/, with its text. */
async function keptCopies(workspace: string): Promise<Array<{ rel: string; wrapped: string }>> {
  const dir = path.join(workspace, path.dirname(PREVIOUS_PREFIX));
  const names = (await fs.promises.readdir(dir).catch(() => [] as string[])).filter(
    (n) => n.startsWith(path.basename(PREVIOUS_PREFIX)) && n.endsWith('.md'),
  );
  const copies = await Promise.all(
    names.map(async (n) => ({ rel: `${path.dirname(PREVIOUS_PREFIX)}/${n}`, wrapped: await read(path.join(dir, n)) })),
  );
  return copies.flatMap((c) => (c.wrapped === undefined ? [] : [{ rel: c.rel, wrapped: c.wrapped }]));
}

/** A free `MEMORY-replaced-<time>.md` name (or the one already holding this very copy). */
async function keepReplaced(workspace: string, now: DateTime, wrapped: string): Promise<string> {
  const stamp = now.toUTC().toFormat("yyyyLLdd'T'HHmmss'Z'");
  for (let n = 1; ; n++) {
    const rel = `${REPLACED_PREFIX}${stamp}${n > 1 ? `-${n}` : ''}.md`;
    const cur = await read(path.join(workspace, rel));
    if (cur === undefined || cur === wrapped) return rel;
  }
}
