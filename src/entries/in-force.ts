/**
 * Which entries are in force: status active and replaced by no active entry, whether explicitly
 * (`supersedes`) or by a newer active entry with the same `key`, as compound decides when it next runs
 * (entries/conflicts.ts). A search hit on a replaced entry is followed to the active end of its chain.
 */
import { append } from '../core/group.js';
import { retractedIds, scopedKeyOf, statusOf } from './lifecycle.js';
import { getField, supersedesOf } from './model.js';
import { currentFirst } from './precedence.js';
import type { EntryRecord } from './store.js';

export class InForce {
  private readonly byId = new Map<string, EntryRecord>();
  private readonly newer = new Map<string, string[]>();

  /** `replacedElsewhere`: ids an active entry not among `records` replaces (heads-scope.ts builds one scope's heads from its rows). */
  constructor(records: EntryRecord[], replacedElsewhere: Iterable<string> = []) {
    for (const r of records) if (r.id && !this.byId.has(r.id)) this.byId.set(r.id, r);
    const active = [...this.byId.values()].filter((r) => statusOf(r) === 'active');
    for (const r of active)
      for (const old of [...supersedesOf(r.entry), ...retractedIds(r)]) if (old !== r.id) this.link(old, r.id);
    for (const id of replacedElsewhere) this.link(id, '');
    // As compound decides (conflicts.ts): entries replaced explicitly leave their key's group.
    const byKey = new Map<string, EntryRecord[]>();
    for (const r of active) {
      const key = getField(r.entry, 'key')?.trim();
      // The same key replaces only within one scope (an entry from before scopes is its session's).
      if (key && !this.newer.has(r.id)) append(byKey, scopedKeyOf(r, key), r);
    }
    for (const group of byKey.values()) {
      const sorted = group.slice().sort(currentFirst);
      for (const r of sorted.slice(1)) this.link(r.id, sorted[0]!.id);
    }
  }

  private link(old: string, by: string): void {
    append(this.newer, old, by);
  }

  get(id: string): EntryRecord | undefined {
    return this.byId.get(id);
  }

  all(): EntryRecord[] {
    return [...this.byId.values()];
  }

  /** Active and replaced by no active entry. */
  visible(r: EntryRecord): boolean {
    return statusOf(r) === 'active' && !(this.newer.get(r.id) ?? []).length;
  }

  /** The entry in force at the end of `id`'s chain (itself when in force), or undefined. */
  activeEnd(id: string): EntryRecord | undefined {
    return this.walk(id).end;
  }

  /** `id`'s chain walked to its entry in force (`end`), with every entry it passed (`seen`, the end included). */
  walk(id: string): { end: EntryRecord | undefined; seen: EntryRecord[] } {
    const seen = new Set<string>();
    const passed: EntryRecord[] = [];
    let cur = this.byId.get(id);
    while (cur && !seen.has(cur.id)) {
      passed.push(cur);
      if (this.visible(cur)) return { end: cur, seen: passed };
      seen.add(cur.id);
      const next = (this.newer.get(cur.id) ?? [])
        .map((x) => this.byId.get(x))
        .filter((x): x is EntryRecord => !!x)
        .sort(currentFirst)[0];
      cur = next;
    }
    return { end: undefined, seen: passed };
  }

  /** Whether an entry outside the records given replaces `id` (the constructor's `replacedElsewhere`). */
  replacedElsewhere(id: string): boolean {
    return (this.newer.get(id) ?? []).includes('');
  }
}
