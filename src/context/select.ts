/**
 * Which entries a context pack may hold (DESIGN §8), pure. Only entries in force appear: status
 * active and not replaced by an active entry (explicit `supersedes`, or another active entry with the
 * same `key` that compound, when it next runs, will keep: entries/precedence.ts). A search hit on a
 * replaced entry is followed to the active end of its chain instead. Layer limits: core ≤ 10,
 * scope ≤ 5, query ≤ 5.
 */
import { getField } from '../entries/model.js';
import { confidenceOf, currentFirst } from '../entries/precedence.js';
import { scopeKey } from '../entries/scope-key.js';
import type { EntryRecord } from '../entries/store.js';
import { statusOf, supersededIds } from '../governance/trace.js';
import { append } from '../core/group.js';
import { isDoneTask } from '../entries/task-state.js';
import { retractedIds, scopedKeyOf } from '../entries/lifecycle.js';

export const LIMITS = { core: 10, scope: 5, query: 5 } as const;

export interface Layers {
  core: EntryRecord[];
  scope: EntryRecord[];
  query: EntryRecord[];
}

const date = (r: EntryRecord) => getField(r.entry, 'date') ?? '';
const weight = (r: EntryRecord) => Number(getField(r.entry, 'weight') ?? 0) || 0;

export function isCore(r: EntryRecord): boolean {
  return (getField(r.entry, 'core') ?? '').trim().toLowerCase() === 'true' || weight(r) >= 9;
}

/** Newest first: date, then confidence, then id, so the same files always give the same pack. */
const newestFirst = (a: EntryRecord, b: EntryRecord) => date(b).localeCompare(date(a)) || confidenceOf(b) - confidenceOf(a) || a.id.localeCompare(b.id);

export class InForce {
  private readonly byId = new Map<string, EntryRecord>();
  private readonly newer = new Map<string, string[]>();

  constructor(records: EntryRecord[]) {
    for (const r of records) if (r.id && !this.byId.has(r.id)) this.byId.set(r.id, r);
    const active = [...this.byId.values()].filter((r) => statusOf(r) === 'active');
    for (const r of active) for (const old of [...supersededIds(r), ...retractedIds(r)]) if (old !== r.id) this.link(old, r.id);
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
    const seen = new Set<string>();
    let cur = this.byId.get(id);
    while (cur && !seen.has(cur.id)) {
      if (this.visible(cur)) return cur;
      seen.add(cur.id);
      const next = (this.newer.get(cur.id) ?? []).map((x) => this.byId.get(x)).filter((x): x is EntryRecord => !!x).sort(currentFirst)[0];
      cur = next;
    }
    return undefined;
  }
}

export function selectLayers(records: EntryRecord[], scope: string | undefined, hitIds: string[]): Layers {
  const f = new InForce(records);
  // A task whose newest state is done is no longer open: no layer lists it.
  const live = f.all().filter((r) => f.visible(r) && !isDoneTask(r.entry));
  const core = live.filter(isCore).sort((a, b) => weight(b) - weight(a) || newestFirst(a, b)).slice(0, LIMITS.core);
  const taken = new Set(core.map((r) => r.id));
  const want = scope?.trim() ? scopeKey(scope) : undefined;
  const inScope = want ? live.filter((r) => !taken.has(r.id) && scopeKey(getField(r.entry, 'scope') ?? '') === want).sort(newestFirst).slice(0, LIMITS.scope) : [];
  inScope.forEach((r) => taken.add(r.id));
  const query: EntryRecord[] = [];
  for (const id of hitIds) {
    const r = f.activeEnd(id);
    if (!r || taken.has(r.id)) continue;
    taken.add(r.id);
    query.push(r);
    if (query.length >= LIMITS.query) break;
  }
  return { core, scope: inScope, query };
}
