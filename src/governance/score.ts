/**
 * The memory score of `mem tick` (DESIGN §8), pure: links, use, recency and age, with the default
 * coefficients documented in docs/agents.md. For an entry e at time `now`:
 *
 *   score = 1.0·ln(1+in) + 0.5·ln(1+out) + 1.0·ln(1+access) + 0.5·ln(1+traverse)
 *         + 2.0·exp(−daysSinceLastUse / 30) − 0.01·ageDays
 *
 * in/out: other entries naming e / named by e (supersedes, refs, Markdown links or bare ids in the
 * text); access/traverse: use-log counts; last use: the newest use-log time, else the entry's date;
 * age: days since the entry's date. Suggestions only: nothing here is written anywhere.
 */
import { DateTime } from 'luxon';
import { ID_PREFIXES } from '../entries/id.js';
import { append } from '../core/group.js';
import { getField, idList } from '../entries/model.js';
import { similarPairs } from '../entries/similar-pairs.js';
import { tokens } from '../entries/similarity.js';
import type { EntryRecord } from '../entries/store.js';
import type { UsageEvent } from '../runlog/usage-log.js';
import { statusOf } from '../entries/lifecycle.js';
import { supersededIds } from './trace.js';

export const COEFFICIENTS = {
  inbound: 1.0,
  outbound: 0.5,
  access: 1.0,
  traverse: 0.5,
  recency: 2.0,
  recencyDays: 30,
  agePerDay: 0.01,
} as const;
export const THRESHOLDS = { cold: 0.5, deleteUnusedDays: 90, mergeSimilarity: 0.6, mergeMaxScore: 1.0 } as const;

export interface Scored {
  id: string;
  path: string;
  kind: string;
  status: string;
  score: number;
  inbound: number;
  outbound: number;
  access: number;
  traverse: number;
  lastUse: string | null;
  daysSinceUse: number;
  ageDays: number;
  state: 'active' | 'cold' | 'delete-candidate' | 'inactive';
}

export interface MergeCandidate {
  a: string;
  b: string;
  similarity: number;
}

const ID_IN_TEXT = new RegExp(String.raw`\b(?:${ID_PREFIXES})-\d{8}-[^\s)\]>#,;` + '`\'"]+', 'g');

/** Other entries an entry names: supersedes, refs, links and bare ids in its text (existing ids only). */
export function outLinks(r: EntryRecord, known: Set<string>): Set<string> {
  const out = new Set<string>();
  const add = (x: string) => {
    const id = x.replace(/[.:]+$/, '');
    if (id !== r.id && known.has(id)) out.add(id);
  };
  supersededIds(r).forEach(add);
  idList(getField(r.entry, 'refs')).forEach(add);
  for (const m of r.block.raw.matchAll(ID_IN_TEXT)) add(m[0]);
  return out;
}

function days(from: DateTime, to: DateTime): number {
  return Math.max(0, to.diff(from, 'days').days);
}

export function scoreEntries(records: EntryRecord[], usage: UsageEvent[], now: DateTime): Scored[] {
  const byId = new Map<string, EntryRecord>();
  for (const r of records) if (r.id && !byId.has(r.id)) byId.set(r.id, r);
  const known = new Set(byId.keys());
  const inbound = new Map<string, number>();
  const outs = new Map<string, Set<string>>();
  for (const r of byId.values()) {
    const o = outLinks(r, known);
    outs.set(r.id, o);
    for (const x of o) inbound.set(x, (inbound.get(x) ?? 0) + 1);
  }
  const use = new Map<string, { access: number; traverse: number; last: DateTime | null }>();
  for (const e of usage) {
    const t = DateTime.fromISO(e.t, { zone: now.zone });
    if (!t.isValid || t > now) continue;
    for (const id of new Set(e.ids)) {
      const u = use.get(id) ?? { access: 0, traverse: 0, last: null };
      u[e.kind]++;
      if (!u.last || t > u.last) u.last = t;
      use.set(id, u);
    }
  }
  const C = COEFFICIENTS;
  return [...byId.values()].map((r): Scored => {
    const date = DateTime.fromISO(getField(r.entry, 'date') ?? '', { zone: now.zone });
    const born = date.isValid ? date.startOf('day') : now;
    const u = use.get(r.id) ?? { access: 0, traverse: 0, last: null };
    const ageDays = days(born, now);
    const daysSinceUse = days(u.last ?? born, now);
    const inb = inbound.get(r.id) ?? 0;
    const outb = outs.get(r.id)!.size;
    const score =
      C.inbound * Math.log1p(inb) +
      C.outbound * Math.log1p(outb) +
      C.access * Math.log1p(u.access) +
      C.traverse * Math.log1p(u.traverse) +
      C.recency * Math.exp(-daysSinceUse / C.recencyDays) -
      C.agePerDay * ageDays;
    const status = statusOf(r);
    const cold = score < THRESHOLDS.cold;
    const state =
      status !== 'active'
        ? 'inactive'
        : !cold
          ? 'active'
          : inb === 0 && daysSinceUse >= THRESHOLDS.deleteUnusedDays
            ? 'delete-candidate'
            : 'cold';
    return {
      id: r.id,
      path: r.file,
      kind: r.entry.kind,
      status,
      score: Math.round(score * 1e6) / 1e6,
      inbound: inb,
      outbound: outb,
      access: u.access,
      traverse: u.traverse,
      lastUse: u.last ? u.last.toUTC().toISO({ suppressMilliseconds: true }) : null,
      daysSinceUse: Math.round(daysSinceUse * 1e6) / 1e6,
      ageDays: Math.round(ageDays * 1e6) / 1e6,
      state,
    };
  });
}

/**
 * Active pairs of one kind and scope, alike in title + conclusion, at least one of them scoring low.
 * Only entries of one kind and scope are compared, and among them only those sharing rare words
 * (similarPairs), so a year of entries is not n² comparisons.
 */
export function mergeCandidates(records: EntryRecord[], scored: Scored[]): MergeCandidate[] {
  const score = new Map(scored.map((s) => [s.id, s.score]));
  const seen = new Set<string>();
  const groups = new Map<string, EntryRecord[]>();
  for (const r of records) {
    if (!r.id || seen.has(r.id)) continue;
    seen.add(r.id);
    if (statusOf(r) !== 'active') continue;
    append(groups, `${r.entry.kind}\n${(getField(r.entry, 'scope') ?? '').trim().toLowerCase()}`, r);
  }
  const out: MergeCandidate[] = [];
  for (const live of groups.values()) {
    const tok = live.map((r) => tokens(`${r.entry.title} ${getField(r.entry, 'conclusion') ?? ''}`));
    for (const { i, j, similarity } of similarPairs(tok, THRESHOLDS.mergeSimilarity)) {
      const [a, b] = [live[i]!, live[j]!];
      if (Math.min(score.get(a.id)!, score.get(b.id)!) >= THRESHOLDS.mergeMaxScore) continue;
      const [x, y] = a.id < b.id ? [a.id, b.id] : [b.id, a.id];
      out.push({ a: x, b: y, similarity: Math.round(similarity * 1000) / 1000 });
    }
  }
  return out.sort((x, y) => y.similarity - x.similarity || x.a.localeCompare(y.a) || x.b.localeCompare(y.b));
}
