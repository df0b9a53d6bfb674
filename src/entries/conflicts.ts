/**
 * Which versions of a fact are current (DESIGN §5). Only two things ever flip a status: an explicit
 * `supersedes`, and several active entries with one `key` (the newest wins; higher confidence breaks
 * a tie, then the later id). Entries that merely look alike are reported as suspected conflicts and
 * never flipped: a similarity score is a guess, and a wrong flip would hide a live rule. Entries in
 * a hand-made supersedes cycle (A supersedes B, B supersedes A) are reported and never flipped:
 * settling it would supersede every version, and the fact would vanish from MEMORY.md.
 */
import { getField, supersedesOf, type Kind } from './model.js';
import { tokens } from './similarity.js';
import { similarPairs } from './similar-pairs.js';
import { currentFirst, dateOf } from './precedence.js';
import { supersedesCycles } from './lint.js';
import type { EntryRecord } from './store.js';
import { DAILY_FILE, RECENT_FILE } from '../write/allowance.js';
import { append } from '../core/group.js';
import { retractedIds, scopedKeyOf, statusOf } from './lifecycle.js';

/** Lexical similarity (Jaccard over word/CJK-bigram tokens of title + conclusion) that makes a suspected conflict; the same value as `mem status` (src/status/conflicts.ts). */
export const SUSPECT_THRESHOLD = 0.6;
/** Where compound may flip a status (DESIGN §2): daily files and their split-outs in memory/recent/. */
const flippable = (file: string) => DAILY_FILE.test(file) || RECENT_FILE.test(file);

export interface Flip {
  id: string;
  file: string;
  date: string;
  by: string;
  reason: string;
  /** The status it gets: superseded (a newer version), or retracted (an appended `retracts`). */
  to: 'superseded' | 'retracted';
}

export interface Suspect {
  a: string;
  b: string;
  score: number;
}

const GROUP: Record<string, string> = {
  Decision: 'd',
  Architecture: 'd',
  Rule: 'r',
  Note: 'n',
  Preference: 'p',
  Goal: 'g',
  Task: 't',
  Lesson: 'l',
};

export interface ConflictPlan {
  flips: Flip[];
  /** Flips that would be needed outside daily files (memory/projects/, archive), which compound may not change. */
  blocked: Flip[];
  suspects: Suspect[];
  /** Supersedes cycles among active entries (as `mem lint` finds them), each from its smallest id; their members are not flipped. */
  cycles: string[][];
}

/** `records`: entries dated up to the week's last day; `inWeek`: whether a record belongs to the week. */
export function planConflicts(records: EntryRecord[], inWeek: (r: EntryRecord) => boolean): ConflictPlan {
  const active = records.filter((r) => r.id && statusOf(r) === 'active');
  const cycles = supersedesCycles(active);
  const inCycle = new Set(cycles.flat());
  const wanted = new Map<string, { by: string; reason: string; to: Flip['to'] }>();
  // A retraction first: the user denied the fact, which says more than that a newer version exists.
  for (const r of active) {
    for (const old of retractedIds(r))
      if (old !== r.id && !wanted.has(old))
        wanted.set(old, { by: r.id, reason: `retracted by ${r.id}`, to: 'retracted' });
  }
  for (const r of active) {
    for (const old of supersedesOf(r.entry))
      if (old !== r.id && !inCycle.has(old) && !wanted.has(old))
        wanted.set(old, { by: r.id, reason: `explicit supersedes in ${r.id}`, to: 'superseded' });
  }
  // The same key replaces only within one scope (lifecycle.ts).
  const byKey = new Map<string, EntryRecord[]>();
  for (const r of active) {
    const key = getField(r.entry, 'key')?.trim();
    if (key && !wanted.has(r.id)) append(byKey, scopedKeyOf(r, key), r);
  }
  for (const [scoped, group] of [...byKey].sort(([a], [b]) => a.localeCompare(b))) {
    const ids = [...new Set(group.map((r) => r.id))];
    if (ids.length < 2) continue;
    const key = scoped.slice(scoped.indexOf('\u0000') + 1);
    const sorted = group.slice().sort(currentFirst);
    const winner = sorted[0]!;
    for (const r of sorted.slice(1))
      if (r.id !== winner.id && !inCycle.has(r.id) && !wanted.has(r.id))
        wanted.set(r.id, { by: winner.id, reason: `same key ${key}, newer entry wins`, to: 'superseded' });
  }
  const plan: ConflictPlan = { flips: [], blocked: [], suspects: [], cycles };
  for (const r of active) {
    const w = wanted.get(r.id);
    if (!w) continue;
    const flip = { id: r.id, file: r.file, date: dateOf(r), ...w };
    (flippable(r.file) ? plan.flips : plan.blocked).push(flip);
  }
  const live = active.filter((r) => !wanted.has(r.id) && !r.file.startsWith('memory/archive/'));
  plan.suspects = suspectedPairs(live, inWeek);
  plan.flips.sort((x, y) => x.file.localeCompare(y.file) || x.id.localeCompare(y.id));
  return plan;
}

/** Look-alike pairs (Jaccard >= SUSPECT_THRESHOLD) with at least one entry in the week (similarPairs: near-linear on a year of entries). */
function suspectedPairs(live: EntryRecord[], inWeek: (r: EntryRecord) => boolean): Suspect[] {
  const tok = live.map((r) => tokens(`${r.entry.title} ${getField(r.entry, 'conclusion') ?? ''}`));
  const out = new Map<string, Suspect>();
  for (const { i, j, similarity: score } of similarPairs(tok, SUSPECT_THRESHOLD)) {
    const a = live[i]!;
    const b = live[j]!;
    if (!inWeek(a) && !inWeek(b)) continue;
    if (a.id === b.id || GROUP[a.entry.kind as Kind] !== GROUP[b.entry.kind as Kind]) continue;
    if (supersedesOf(a.entry).includes(b.id) || supersedesOf(b.entry).includes(a.id)) continue;
    const pair = a.id < b.id ? { a: a.id, b: b.id, score } : { a: b.id, b: a.id, score };
    out.set(`${pair.a} ${pair.b}`, pair);
  }
  return [...out.values()].sort((x, y) => x.a.localeCompare(y.a) || x.b.localeCompare(y.b));
}
