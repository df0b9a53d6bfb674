/**
 * Conflicts among active entries (DESIGN §5, §8), pure. A conflict is certain when two active entries
 * share a `key` in one scope, or an active entry is named by another active entry's `supersedes` or
 * `retracts` (compound flips it on its next run). Similar titles and conclusions of one kind are only *suspected* conflicts:
 * similarity never flips a status, it is reported for a person to judge.
 */
import { getField, supersedesOf } from './model.js';
import { similarPairs } from './similar-pairs.js';
import { tokens } from './similarity.js';
import type { EntryRecord } from './store.js';
import { append } from '../core/group.js';
import { retractedIds, scopedKeyOf } from './lifecycle.js';

export interface Conflict {
  ids: string[];
  reason: string;
}

export const SUSPECT_SIMILARITY = 0.6;
const MAX_LISTED = 50;

export function findConflicts(records: EntryRecord[]): { conflicts: Conflict[]; suspected: Conflict[] } {
  const active = records.filter((r) => r.id && (getField(r.entry, 'status') ?? 'active') === 'active');
  const conflicts: Conflict[] = [];
  const byKey = new Map<string, string[]>();
  for (const r of active) {
    const key = getField(r.entry, 'key');
    if (key) append(byKey, scopedKeyOf(r, key), r.id);
  }
  for (const [scoped, ids] of byKey)
    if (ids.length > 1)
      conflicts.push({
        ids,
        reason: `${ids.length} active entries share key ${scoped.slice(scoped.indexOf('\u0000') + 1)}`,
      });
  const activeIds = new Set(active.map((r) => r.id));
  const linked = new Set<string>();
  for (const r of active) {
    for (const target of retractedIds(r))
      if (activeIds.has(target))
        conflicts.push({ ids: [target, r.id], reason: `${target} is retracted by ${r.id} but still active` });
    for (const target of supersedesOf(r.entry)) {
      linked.add(`${r.id} ${target}`).add(`${target} ${r.id}`);
      if (activeIds.has(target))
        conflicts.push({ ids: [target, r.id], reason: `${target} is superseded by ${r.id} but still active` });
    }
  }
  const suspected: Conflict[] = [];
  const byKind = new Map<string, Array<{ id: string; key?: string; toks: Set<string> }>>();
  for (const r of active) {
    const toks = tokens(`${r.entry.title} ${getField(r.entry, 'conclusion') ?? ''}`);
    const key = getField(r.entry, 'key');
    append(byKind, r.entry.kind, { id: r.id, toks, ...(key ? { key } : {}) });
  }
  for (const list of byKind.values()) {
    for (const { i, j, similarity } of similarPairs(
      list.map((x) => x.toks),
      SUSPECT_SIMILARITY,
    )) {
      if (suspected.length >= MAX_LISTED) break;
      const a = list[i]!;
      const b = list[j]!;
      if (a.id === b.id || (a.key && a.key === b.key) || linked.has(`${a.id} ${b.id}`)) continue;
      suspected.push({ ids: [a.id, b.id], reason: `similar (${similarity.toFixed(2)}), neither supersedes the other` });
    }
  }
  return { conflicts, suspected };
}
