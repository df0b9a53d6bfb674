/**
 * `mem restore <id>`: undoes a wrong supersede, archive or retraction through the status machine
 * (DESIGN §5): the entry's status goes back to `active`, touching only its status line, under the
 * write lock with the `restore` allowance, and the weekly log says so. An entry another active entry
 * still names in `supersedes` would be flipped again by the next compound: the result says which.
 */
import type { DateTime } from 'luxon';
import type { LoadedConfig } from '../config/load.js';
import { MemError } from '../core/errors.js';
import { getField } from '../entries/model.js';
import { loadEntries } from '../entries/store.js';
import { appendRun, weeklyLogOf } from '../governance/weekly-log.js';
import { statusOf, supersededIds } from '../governance/trace.js';
import { defaultLockOptions } from '../write/defaults.js';
import { WorkspaceWriter } from '../write/writer.js';
import { flipStatus } from './compound/flip.js';
import { RESTORABLE } from './forget-plan.js';

export interface RestoreResult {
  id: string;
  file: string;
  from: string;
  to: 'active';
  changed: boolean;
  dryRun: boolean;
  /** Active entries that still supersede it (compound would flip it back). */
  stillSupersededBy: string[];
  log: string | null;
}

export async function runRestore(opts: { workspace: string; loaded: LoadedConfig; now: DateTime; id: string; dryRun: boolean }): Promise<RestoreResult> {
  const records = await loadEntries(opts.workspace);
  const r = records.find((x) => x.id === opts.id);
  if (!r) throw new MemError('NOT_FOUND', `no entry with id ${opts.id} (a hard-forgotten entry cannot be restored; git history still has it)`);
  const from = statusOf(r);
  const stillSupersededBy = records.filter((x) => statusOf(x) === 'active' && supersededIds(x).includes(opts.id)).map((x) => x.id);
  const res: RestoreResult = { id: opts.id, file: r.file, from, to: 'active', changed: false, dryRun: opts.dryRun, stillSupersededBy, log: null };
  if (from === 'active') return res;
  if (!(RESTORABLE as readonly string[]).includes(from)) {
    throw new MemError('USAGE', `${opts.id} has status "${from}"; restore brings back ${RESTORABLE.join(', ')} entries`);
  }
  if (opts.dryRun) return { ...res, changed: true };
  const writer = new WorkspaceWriter(opts.workspace, 'restore', defaultLockOptions(opts.loaded.config));
  res.changed = await writer.update(r.file, (cur) => (cur === undefined ? undefined : flipStatus(cur, opts.id, from, 'active')));
  if (res.changed) {
    const log = weeklyLogOf(opts.now);
    const stamp = opts.now.toISO({ suppressMilliseconds: true }) ?? '';
    const key = getField(r.entry, 'key');
    await writer.update(log.file, (cur) => appendRun(cur, log.header, `${stamp} (mem restore)`, [`restored: ${opts.id} (was ${from}) by \`mem restore\`${key ? `; key ${key}` : ''}`]));
    res.log = log.file;
  }
  return res;
}

