/**
 * The in-force heads of the entry table (issue 28), pure: per scope, the few entries a session-start
 * pack could take, so `mem context` reads a few hundred rows instead of every entry. Kept per scope
 * (global included): the newest HEAD_DEPTH in-force entries of each kind (done tasks left out), the
 * heaviest HEAD_DEPTH core entries and the newest HEAD_DEPTH rules and preferences a person stands
 * behind; and, for every id MEMORY.md named when they were built, the entry in force at the end of
 * its chain.
 *
 * Invariant: every entry the pack's selection (pack/select.ts) takes from all entries is among a
 * scope's heads and global's, and every head is in force among all entries, so selecting from the
 * heads gives the same pack (a test compares both). HEAD_DEPTH covers a kind group's limit plus
 * every core slot, which may take an entry of the group first.
 */
import { append } from '../core/group.js';
import { InForce } from './in-force.js';
import { scopedKeyOf } from './lifecycle.js';
import { getField } from './model.js';
import { scopeKey } from './scope-key.js';
import { heaviestFirst, isCore, newestFirst, unconfirmedAgent } from './standing.js';
import type { EntryRecord } from './store.js';
import { rowOf, tableRecord, type Row } from './table.js';
import { isDoneTask } from './task-state.js';

export const HEAD_DEPTH = 40;

export type HeadRow = [file: string, row: Row];

export interface Heads {
  /** Per scope key (`global`, `project:x`, ...): its heads. */
  scopes: Record<string, HeadRow[]>;
  /** Per id MEMORY.md named: its chain's entry in force, or null when none is. */
  cited: Record<string, HeadRow | null>;
}

/** A record's scope key, `''` when unscoped. */
export const scopeKeyOf = (r: EntryRecord): string => {
  const scope = getField(r.entry, 'scope')?.trim();
  return scope ? scopeKey(scope) : '';
};

const top = (list: EntryRecord[], order: (a: EntryRecord, b: EntryRecord) => number) =>
  list.slice().sort(order).slice(0, HEAD_DEPTH);
const headRow = (r: EntryRecord): HeadRow => [r.file, rowOf(r)];

/**
 * Each cited id's chain as walked: the ids it passed, their scopes (`''`: unscoped) and their keys
 * as scoped (`''`: none), what an incremental refresh checks (heads-cited.ts).
 */
export type Walked = Record<string, [ids: string[], scopes: string[], keys: string[]]>;

/** A record's key as InForce groups it (lifecycle.ts scopedKeyOf), `''` when it has none. */
export const groupKeyOf = (r: EntryRecord): string => {
  const key = getField(r.entry, 'key')?.trim();
  return key ? scopedKeyOf(r, key) : '';
};

/**
 * `records` carry their scope as read (an old entry's filled in from its session); `cited`: ids
 * MEMORY.md names; `replacedElsewhere`: ids replaced by an active entry not among `records`.
 */
export function buildHeads(
  records: EntryRecord[],
  cited: string[],
  replacedElsewhere: Iterable<string> = [],
): Heads & { walked: Walked } {
  const f = new InForce(records, replacedElsewhere);
  const byScope = new Map<string, EntryRecord[]>();
  for (const r of f.all()) {
    const scope = scopeKeyOf(r);
    // Unscoped entries are in no pack's layer 0 or 1.
    if (scope && f.visible(r) && !isDoneTask(r.entry)) append(byScope, scope, r);
  }
  const scopes: Heads['scopes'] = {};
  for (const [scope, live] of byScope) {
    const byKind = new Map<string, EntryRecord[]>();
    for (const r of live) append(byKind, r.entry.kind, r);
    const worthy = live.filter((r) => !unconfirmedAgent(r));
    const heads = new Set<EntryRecord>([
      ...[...byKind.values()].flatMap((list) => top(list, newestFirst)),
      ...top(worthy.filter(isCore), heaviestFirst),
      ...top(
        worthy.filter((r) => r.entry.kind === 'Rule' || r.entry.kind === 'Preference'),
        newestFirst,
      ),
    ]);
    scopes[scope] = [...heads].map(headRow);
  }
  const ends: Heads['cited'] = {};
  const walked: Walked = {};
  for (const id of cited) {
    const { end, seen } = f.walk(id);
    ends[id] = end ? headRow(end) : null;
    walked[id] = [seen.map((r) => r.id), seen.map((r) => scopeKeyOf(r)), seen.map(groupKeyOf)];
  }
  return { scopes, cited: ends, walked };
}

/**
 * What a pack selects from: the heads of global and of `scope` (`rows`), with MEMORY.md's `cited`
 * ids followed to their ends; undefined when MEMORY.md names an id the heads were built without
 * (it changed since).
 */
export function headsFor(
  rows: HeadRow[],
  citedEnds: Heads['cited'],
  cited: string[],
): { records: EntryRecord[]; promoted: string[] } | undefined {
  if (cited.some((id) => !Object.hasOwn(citedEnds, id))) return undefined;
  const records = new Map<string, EntryRecord>();
  const add = ([file, row]: HeadRow) => {
    const r = tableRecord(file, row);
    const at = `${file}\0${r.block.startLine}`;
    return records.get(at) ?? (records.set(at, r), r);
  };
  rows.forEach(add);
  const promoted = cited.flatMap((id) => (citedEnds[id] ? [add(citedEnds[id]!).id] : []));
  return { records: [...records.values()], promoted };
}
