/**
 * Which entries a context pack may hold (DESIGN §8), pure. Only entries in force appear: status
 * active and not replaced by an active entry (explicit `supersedes`, or a newer active entry with the
 * same `key`: in-force.ts). Layer 0 is what holds for this session whatever it does: what compound
 * promoted into MEMORY.md, `core`/high-weight entries and global preferences and rules, each global or
 * of this project; an agent's statement no person confirmed is never among them. Layer 1 is the
 * project's own memory, per kind within limits, so one chatty kind cannot crowd out the open tasks.
 * An unscoped entry (written before scopes existed, its scope not inferable) is in neither: it could
 * belong to any project. Layer 2 is the query's hits, followed to the active end of their chains.
 */
import { getField } from '../entries/model.js';
import { scopeKey } from '../entries/scope-key.js';
import type { EntryRecord } from '../entries/store.js';
import { isDoneTask } from '../entries/task-state.js';
import { InForce } from '../entries/in-force.js';
import { heaviestFirst, isCore, newestFirst, unconfirmedAgent } from '../entries/standing.js';

/** Per-group limits of layer 1 (issue: rules and preferences ≤ 15, open tasks ≤ 10, goals ≤ 5, decisions ≤ 5). */
export const LIMITS = {
  core: 20,
  rules: 15,
  tasks: 10,
  goals: 5,
  decisions: 5,
  lessons: 5,
  notes: 5,
  query: 5,
} as const;

/** Layer 1's groups, in the order they are offered the budget. */
const GROUPS: Array<{ limit: keyof typeof LIMITS; kinds: string[] }> = [
  { limit: 'rules', kinds: ['Rule', 'Preference'] },
  { limit: 'tasks', kinds: ['Task'] },
  { limit: 'goals', kinds: ['Goal'] },
  { limit: 'decisions', kinds: ['Decision', 'Architecture'] },
  { limit: 'lessons', kinds: ['Lesson'] },
  { limit: 'notes', kinds: ['Note'] },
];

export interface Layers {
  core: EntryRecord[];
  scope: EntryRecord[];
  query: EntryRecord[];
}

export interface Selection {
  /** The session's project scope, as given or derived from the folder. */
  scope: string | undefined;
  /** Ids MEMORY.md cites (compound's promotions), in its order. */
  promoted: string[];
  /** Search hits for the query layer, best first. */
  hitIds: string[];
}

export function selectLayers(records: EntryRecord[], sel: Selection): Layers {
  const f = new InForce(records);
  // A task whose newest state is done is no longer open: no layer lists it.
  const live = f.all().filter((r) => f.visible(r) && !isDoneTask(r.entry));
  const project = sel.scope?.trim() ? scopeKey(sel.scope) : undefined;
  // The written scope (run.ts fills in an old entry's from its session); empty: unscoped.
  const where = (r: EntryRecord) => {
    const s = getField(r.entry, 'scope')?.trim();
    return s ? scopeKey(s) : undefined;
  };
  const isGlobal = (r: EntryRecord) => where(r) === 'global';
  const isProject = (r: EntryRecord) => project !== undefined && where(r) === project;

  const taken = new Set<string>();
  const core: EntryRecord[] = [];
  const take = (list: EntryRecord[], into: EntryRecord[], limit: number) => {
    for (const r of list) {
      if (into.length >= limit) break;
      if (taken.has(r.id)) continue;
      taken.add(r.id);
      into.push(r);
    }
  };
  const coreWorthy = (r: EntryRecord | undefined): r is EntryRecord =>
    !!r && (isGlobal(r) || isProject(r)) && !unconfirmedAgent(r);
  const promoted = sel.promoted.map((id) => f.activeEnd(id)).filter(coreWorthy);
  const heavy = live.filter((r) => isCore(r) && coreWorthy(r)).sort(heaviestFirst);
  const globalRules = live
    .filter((r) => isGlobal(r) && ['Rule', 'Preference'].includes(r.entry.kind) && coreWorthy(r))
    .sort(newestFirst);
  take([...promoted, ...heavy, ...globalRules], core, LIMITS.core);

  const scope: EntryRecord[] = [];
  const mine = live.filter(isProject).sort(newestFirst);
  for (const g of GROUPS) {
    const group: EntryRecord[] = [];
    take(
      mine.filter((r) => g.kinds.includes(r.entry.kind)),
      group,
      LIMITS[g.limit],
    );
    scope.push(...group);
  }

  const query: EntryRecord[] = [];
  const hits = sel.hitIds.map((id) => f.activeEnd(id)).filter((r): r is EntryRecord => !!r);
  take(hits, query, LIMITS.query);
  return { core, scope, query };
}
