/**
 * `mem trace <id>`: the whole history of a fact, oldest to newest, with dates and statuses, and the
 * weekly-log lines that changed them. Pure over the loaded records and log hits; reads only.
 * A chain is followed both ways (`supersedes` names the older entry; the newer ones are found by
 * who names this one), with a visited set so a hand-made cycle cannot loop forever. Entries sharing
 * a `key` belong to one chain too, since compound supersedes the older of two active entries with one
 * key (DESIGN §5): following `supersedes` alone said "current: none" while a key successor was active.
 * The current entry is decided by compound's own rule (entries/conflicts.ts), imported, not copied.
 */
import { getField, supersedesOf } from '../entries/model.js';
import type { EntryRecord } from '../entries/store.js';
import { planConflicts } from '../entries/conflicts.js';
import type { LogHit } from './weekly-log.js';
import { olderOf, retractedIds, scopedKeyOf, statusOf } from '../entries/lifecycle.js';
import { chainLinks } from '../entries/links-index.js';

export interface TraceStep {
  id: string;
  kind: string;
  title: string;
  date: string | null;
  status: string;
  path: string;
  startLine: number;
  endLine: number;
  supersedes: string[];
  /** The ids its `retracts` names (an appended retraction). */
  retracts: string[];
  key: string | null;
  scope: string | null;
  /** A Task's state (todo, doing, done, blocked). */
  state: string | null;
  log: LogHit[];
}

export interface Trace {
  id: string;
  /** Oldest to newest. */
  chain: TraceStep[];
  /** The entry compound keeps active: the newest active one no active entry supersedes (explicitly or by key), if any. */
  current: string | null;
}

export function supersededIds(r: EntryRecord): string[] {
  return supersedesOf(r.entry);
}

const keyOf = (r: EntryRecord) => getField(r.entry, 'key')?.trim() || null;

/** What a chain is followed through: entries by id, who names an id as older, who shares a scoped key. */
export interface ChainSource {
  /** The entry with this id (the first in file order), or undefined. */
  record(id: string): EntryRecord | undefined;
  /** The ids whose `supersedes` or `retracts` name `id`. */
  newer(id: string): string[];
  /** The ids whose key, in their scope, is `scopedKey`. */
  sameKey(scopedKey: string): string[];
}

/** A chain source over every record in memory (what a read without the links index has). */
export function recordsSource(records: EntryRecord[]): ChainSource {
  const byId = new Map<string, EntryRecord>();
  for (const r of records) if (r.id && !byId.has(r.id)) byId.set(r.id, r);
  // One key in one scope is one fact (lifecycle.ts): project B's entry with A's key is another chain.
  const { newer, keys } = chainLinks(records);
  const ids = (held: Array<[string, string]> | undefined) => (held ?? []).map((h) => h[0]);
  return { record: (id) => byId.get(id), newer: (id) => ids(newer.get(id)), sameKey: (k) => ids(keys.get(k)) };
}

/** Ids of the chain holding `id` (linked by `supersedes` or a shared `key`), oldest first (an entry before whatever supersedes it). */
export function chainIds(records: EntryRecord[], id: string): string[] {
  return chainOf(recordsSource(records), id);
}

function chainOf(src: ChainSource, id: string): string[] {
  const byId = new Map<string, EntryRecord>();
  const recordOf = (x: string) => {
    if (!byId.has(x)) {
      const r = src.record(x);
      if (r) byId.set(x, r);
    }
    return byId.get(x);
  };
  const seen = new Set<string>();
  const keys = new Set<string>();
  const todo = [id];
  while (todo.length) {
    const x = todo.pop()!;
    const r = seen.has(x) ? undefined : recordOf(x);
    if (!r) continue;
    seen.add(x);
    const key = keyOf(r);
    const k = key && scopedKeyOf(r, key);
    if (k && !keys.has(k)) {
      keys.add(k);
      todo.push(...src.sameKey(k));
    }
    todo.push(...olderOf(r), ...src.newer(x));
  }
  // Order: by depth from the oldest (an entry comes after everything it supersedes), then date, then id.
  const olderIn = (x: string) => olderOf(byId.get(x)!).filter((o) => seen.has(o));
  const depth = new Map<string, number>();
  for (const x of seen) longestFrom(x, olderIn, depth);
  const depthOf = (x: string) => depth.get(x)!;
  const date = (x: string) => getField(byId.get(x)!.entry, 'date') ?? '';
  return [...seen].sort((a, b) => depthOf(a) - depthOf(b) || date(a).localeCompare(date(b)) || a.localeCompare(b));
}

/**
 * Sets depth[x]: the most `supersedes` steps from x down to an entry that supersedes none, an edge
 * back into the walk's own path (a hand-made cycle) counting as 0. Iterative: a chain thousands of
 * entries deep must not overflow the stack.
 */
function longestFrom(start: string, olderIn: (x: string) => string[], depth: Map<string, number>): void {
  const onPath = new Set<string>();
  const work: [string, boolean][] = [[start, false]];
  while (work.length) {
    const [x, expanded] = work.pop()!;
    if (expanded) {
      onPath.delete(x);
      depth.set(
        x,
        olderIn(x).reduce((d, o) => Math.max(d, 1 + (depth.get(o) ?? 0)), 0),
      );
    } else if (!depth.has(x) && !onPath.has(x)) {
      onPath.add(x);
      work.push([x, true]);
      for (const o of olderIn(x)) if (!depth.has(o) && !onPath.has(o)) work.push([o, false]);
    }
  }
}

export function buildTrace(src: ChainSource, id: string, logFor: (id: string) => LogHit[]): Trace | undefined {
  if (!src.record(id)) return undefined;
  const ids = chainOf(src, id);
  const byId = new Map(ids.map((x) => [x, src.record(x)!] as const));
  const chain = ids.map((x): TraceStep => {
    const r = byId.get(x)!;
    return {
      id: x,
      kind: r.entry.kind,
      title: r.entry.title,
      date: getField(r.entry, 'date') ?? null,
      status: statusOf(r),
      path: r.file,
      startLine: r.block.startLine,
      endLine: r.block.endLine,
      supersedes: supersededIds(r),
      retracts: retractedIds(r),
      key: keyOf(r),
      scope: getField(r.entry, 'scope')?.trim() || null,
      state: getField(r.entry, 'state')?.trim() || null,
      log: logFor(x),
    };
  });
  const plan = planConflicts([...byId.values()], () => false);
  const flipped = new Set([...plan.flips, ...plan.blocked].map((f) => f.id));
  const current = chain.filter((s) => s.status === 'active' && !flipped.has(s.id));
  return { id, chain, current: current.length ? current[current.length - 1]!.id : null };
}

export function formatTrace(t: Trace): string {
  const out: string[] = [];
  for (const s of t.chain) {
    const mark = s.id === t.id ? '*' : ' ';
    out.push(`${mark} ${s.date ?? '????-??-??'}  ${s.status.padEnd(10)} ${s.id}  ${s.path}:${s.startLine}`);
    const links = [
      ...(s.supersedes.length ? [`supersedes ${s.supersedes.join(', ')}`] : []),
      ...(s.retracts.length ? [`retracts ${s.retracts.join(', ')}`] : []),
      ...(s.key ? [`key ${s.key}`] : []),
      ...(s.scope ? [`scope ${s.scope}`] : []),
      ...(s.state ? [`state ${s.state}`] : []),
    ];
    out.push(`    ${s.kind}: ${s.title}${links.length ? `  (${links.join('; ')})` : ''}`);
    for (const h of s.log) out.push(`    log ${h.file}:${h.line}${h.run ? ` [run ${h.run}]` : ''}: ${h.text}`);
  }
  out.push(t.current ? `current: ${t.current}` : 'current: none (no active entry in this chain)');
  return out.join('\n');
}
