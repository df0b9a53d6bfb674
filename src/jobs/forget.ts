/**
 * `mem forget`: soft (status → retracted, kept for audit) or hard (removed from every Markdown file
 * that holds it, purged from `.mem/`, see forget-hard.ts). Every change is a read-modify-write under
 * the write lock with the `forget` allowance, so a concurrent microsync append is never lost; each
 * run adds one weekly-log run.
 */
import fs from 'node:fs';
import path from 'node:path';
import { MemError } from '../core/errors.js';
import { exactIdHint } from '../entries/id-resolve.js';
import { loadEntries } from '../entries/store.js';
import { appendRun, weeklyLogOf } from '../governance/weekly-log.js';
import { defaultLockOptions } from '../write/defaults.js';
import { WorkspaceWriter } from '../write/writer.js';
import { withConsolidationLock } from './consolidation-lock.js';
import { hardForget, readText, runStamp } from './forget-hard.js';
import { retractIn } from './forget-plan.js';
import type { ForgetOptions, ForgetResult } from './forget-types.js';

/** Whether a weekly log records a retraction of `id` (by forget, or by any run). */
function loggedRetraction(workspace: string, id: string): boolean {
  const dir = path.join(workspace, 'memory', 'archive');
  const logs = fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => /^weekly-.+\.md$/.test(n)) : [];
  return logs.some((n) => fs.readFileSync(path.join(dir, n), 'utf8').includes(`retracted: ${id} `));
}

export async function runForget(opts: ForgetOptions): Promise<ForgetResult> {
  const res: ForgetResult = {
    mode: opts.hard ? 'hard' : 'soft',
    dryRun: opts.dryRun,
    ids: opts.ids,
    retracted: [],
    alreadyRetracted: [],
    resumed: [],
    files: [],
    kept: [],
    derived: [],
    archive: null,
    log: null,
    warnings: [],
  };
  if (!opts.hard) return softForget(opts, res);
  const locks = defaultLockOptions(opts.loaded.config);
  if (opts.dryRun) return hardForget(opts, res, new WorkspaceWriter(opts.workspace, 'forget', locks));
  // Held like wrapup and compound hold it: either job plans with the entry and writes later, and
  // would write the entry back into MEMORY.md or a summary after it is gone.
  return withConsolidationLock(opts.workspace, 'forget', locks, (jobLock) =>
    hardForget(opts, res, new WorkspaceWriter(opts.workspace, 'forget', locks, jobLock)),
  );
}

/**
 * A status flip needs no consolidation lock: compound flips only an entry still active when it
 * writes (flip.ts), and a MEMORY.md item of a retracted entry is hidden like the entry.
 */
async function softForget(opts: ForgetOptions, res: ForgetResult): Promise<ForgetResult> {
  const { workspace, now } = opts;
  const records = await loadEntries(workspace);
  const missing = opts.ids.filter((id) => !records.some((r) => r.id === id));
  if (missing.length)
    throw new MemError(
      'NOT_FOUND',
      `no entry with id ${missing.join(', ')} (ids are listed by "mem search" and "mem export")${
        missing.length === 1
          ? exactIdHint(
              missing[0]!,
              records.map((r) => r.id),
            )
          : ''
      }`,
    );
  const writer = new WorkspaceWriter(workspace, 'forget', defaultLockOptions(opts.loaded.config));
  const log = weeklyLogOf(now);
  for (const id of opts.ids) {
    const before = res.retracted.length;
    // A file holding the id twice is read once: both copies are retracted together.
    for (const file of new Set(records.filter((x) => x.id === id).map((x) => x.file))) {
      const text = await readText(workspace, file);
      const change = text === undefined ? undefined : retractIn(text, id);
      if (!change) continue;
      if (!opts.dryRun) await writer.update(file, (cur) => (cur === undefined ? undefined : retractIn(cur, id)?.text));
      for (const from of new Set(change.from))
        res.retracted.push({ id, file, from, entries: change.from.filter((x) => x === from).length });
    }
    if (res.retracted.length === before) res.alreadyRetracted.push(id);
  }
  // A run killed between its flips and its log line left retracted entries the log never names: logged now.
  const unlogged = opts.dryRun ? [] : res.alreadyRetracted.filter((id) => !loggedRetraction(workspace, id));
  res.resumed = unlogged;
  const lines = [
    ...res.retracted.map((x) => `retracted: ${x.id} (was ${x.from}) by \`mem forget\``),
    ...unlogged.map((id) => `retracted: ${id} by \`mem forget\` (finishing a run that stopped before its log line)`),
  ];
  if (lines.length && !opts.dryRun) {
    await writer.update(log.file, (cur) => appendRun(cur, log.header, `${runStamp(now)} (mem forget)`, lines));
    res.log = log.file;
  }
  return res;
}
