/**
 * `mem restore <id>`: undoes a wrong supersede, archive or retraction through the status machine
 * (DESIGN §5): the entry's status goes back to `active` in every file that holds it (as `forget`
 * retracts every copy; restoring only the first left the others retracted), touching only each
 * status line, under the write lock with the `restore` allowance, and the weekly log says so. An
 * entry that compound would supersede again (an active entry names it in `supersedes`, or a newer
 * active entry has its `key`) is flipped back by the next compound: the result says by which.
 */
import type { DateTime } from 'luxon';
import type { LoadedConfig } from '../config/load.js';
import { MemError } from '../core/errors.js';
import { exactIdHint } from '../entries/id-resolve.js';
import { getField } from '../entries/model.js';
import { loadEntries, type EntryRecord } from '../entries/store.js';
import { appendRun, weeklyLogOf } from '../governance/weekly-log.js';
import { statusOf } from '../entries/lifecycle.js';
import { supersededIds } from '../governance/trace.js';
import { defaultLockOptions } from '../write/defaults.js';
import { WorkspaceWriter } from '../write/writer.js';
import { planConflicts } from '../entries/conflicts.js';
import { flipStatus } from './compound/flip.js';
import { RESTORABLE } from './forget-plan.js';

export interface RestoreCopy {
  file: string;
  from: string;
  changed: boolean;
}

export interface RestoreResult {
  id: string;
  /** The first file holding it, and its status there (see `copies` for every file). */
  file: string;
  from: string;
  to: 'active';
  changed: boolean;
  dryRun: boolean;
  /** Every file holding the entry, with its status there and whether it was (or would be) flipped. */
  copies: RestoreCopy[];
  /** Active entries that would supersede it again at the next compound (compound would flip it back). */
  stillSupersededBy: string[];
  /** Set when that is by `key`: a newer active entry with the same key (compound's rule, entries/conflicts.ts). */
  sameKey: { key: string; by: string } | null;
  log: string | null;
}

/** What compound would do with the entry once active: the entry that would supersede it and why. */
function supersededAgain(
  records: EntryRecord[],
  id: string,
): { explicit: string[]; sameKey: { key: string; by: string } | null } {
  const explicit = records
    .filter((x) => x.id !== id && statusOf(x) === 'active' && supersededIds(x).includes(id))
    .map((x) => x.id);
  const asActive = records.map((r) =>
    r.id === id
      ? {
          ...r,
          entry: {
            ...r.entry,
            fields: r.entry.fields.map((f) => (f.key === 'status' ? { ...f, value: 'active' } : f)),
          },
        }
      : r,
  );
  const plan = planConflicts(asActive, () => false);
  const flip = [...plan.flips, ...plan.blocked].find((f) => f.id === id);
  const key = getField(records.find((r) => r.id === id)!.entry, 'key')?.trim();
  const sameKey = flip && key && !explicit.includes(flip.by) ? { key, by: flip.by } : null;
  return { explicit, sameKey };
}

export async function runRestore(opts: {
  workspace: string;
  loaded: LoadedConfig;
  now: DateTime;
  id: string;
  dryRun: boolean;
}): Promise<RestoreResult> {
  const records = await loadEntries(opts.workspace);
  const held = records.filter((x) => x.id === opts.id);
  if (!held.length)
    throw new MemError(
      'NOT_FOUND',
      `no entry with id ${opts.id} (a hard-forgotten entry cannot be restored; git history still has it)${exactIdHint(
        opts.id,
        records.map((r) => r.id),
      )}`,
    );
  const copies: RestoreCopy[] = held.map((r) => ({ file: r.file, from: statusOf(r), changed: false }));
  const blocked = copies.find((c) => c.from !== 'active' && !(RESTORABLE as readonly string[]).includes(c.from));
  if (blocked)
    throw new MemError(
      'USAGE',
      `${opts.id} has status "${blocked.from}" in ${blocked.file}; restore brings back ${RESTORABLE.join(', ')} entries`,
    );
  const again = supersededAgain(records, opts.id);
  const first = copies.find((c) => c.from !== 'active') ?? copies[0]!;
  const res: RestoreResult = {
    id: opts.id,
    file: first.file,
    from: first.from,
    to: 'active',
    changed: false,
    dryRun: opts.dryRun,
    copies,
    stillSupersededBy: [...again.explicit, ...(again.sameKey ? [again.sameKey.by] : [])],
    sameKey: again.sameKey,
    log: null,
  };
  const todo = copies.filter((c) => c.from !== 'active');
  if (!todo.length) return res;
  if (opts.dryRun) {
    for (const c of todo) c.changed = true;
    return { ...res, changed: true };
  }
  const writer = new WorkspaceWriter(opts.workspace, 'restore', defaultLockOptions(opts.loaded.config));
  for (const c of todo)
    c.changed = await writer.update(c.file, (cur) =>
      cur === undefined ? undefined : flipStatus(cur, opts.id, c.from, 'active'),
    );
  const done = todo.filter((c) => c.changed);
  res.changed = done.length > 0;
  if (res.changed) {
    const log = weeklyLogOf(opts.now);
    const stamp = opts.now.toISO({ suppressMilliseconds: true }) ?? '';
    const key = getField(held[0]!.entry, 'key');
    await writer.update(log.file, (cur) =>
      appendRun(
        cur,
        log.header,
        `${stamp} (mem restore)`,
        done.map((c) => `restored: ${opts.id} (was ${c.from}) by \`mem restore\`${key ? `; key ${key}` : ''}`),
      ),
    );
    res.log = log.file;
  }
  return res;
}
