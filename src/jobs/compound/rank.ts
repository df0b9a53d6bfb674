/**
 * Promotion ranking (DESIGN §8). Only committed signals count — kind, confidence, links, `core`,
 * `weight`, and recency measured from the week's last day — never the per-machine usage log, so
 * every machine computes the same MEMORY.md from the same files.
 *
 *   score = KIND[kind] + 2·confidence + 0.5·min(links, 4) + 3·core + 0.3·weight + 2·0.5^(age/30)
 *
 * KIND: Rule 2, Preference 2, Decision 1.5, Architecture 1.5, Goal 1.5, Lesson 1.5, Task 1, Note 1
 * (what holds for every session first; a task is open for a while, a note is detail). links: other entries naming this id in
 * `refs`, plus 1 when this entry itself supersedes another (a deliberate revision). Being named in
 * another's `supersedes` earns nothing: it marks the entry as replaced, not as important.
 * core: 1 when `core: true`. weight: 0-10, clamped. age: days from the entry's date to the week's
 * last day (half-life 30 days). An entry is promoted when score >= PROMOTE_MIN (3.0), best first.
 */
import { getField, idList } from '../../entries/model.js';
import type { EntryRecord } from '../../entries/store.js';
import { dateOf } from '../../entries/precedence.js';
import { ageDays, type Week } from './week.js';

export const KIND_SCORE: Record<string, number> = {
  Rule: 2,
  Preference: 2,
  Decision: 1.5,
  Architecture: 1.5,
  Goal: 1.5,
  Lesson: 1.5,
  Task: 1,
  Note: 1,
};
export const COEFF = {
  confidence: 2,
  links: 0.5,
  maxLinks: 4,
  core: 3,
  weight: 0.3,
  recency: 2,
  halfLifeDays: 30,
} as const;
export const PROMOTE_MIN = 3;

export interface Ranked {
  record: EntryRecord;
  score: number;
  parts: { kind: number; confidence: number; links: number; core: number; weight: number; recency: number };
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, Number.isFinite(v) ? v : lo));
const round = (v: number) => Math.round(v * 1000) / 1000;

export function rankEntries(records: EntryRecord[], all: EntryRecord[], week: Week): Ranked[] {
  const inbound = new Map<string, number>();
  for (const r of all) {
    const named = idList(getField(r.entry, 'refs'));
    for (const id of new Set(named)) if (id !== r.id) inbound.set(id, (inbound.get(id) ?? 0) + 1);
  }
  const out = records.map((record): Ranked => {
    const e = record.entry;
    const links = Math.min(COEFF.maxLinks, (inbound.get(record.id) ?? 0) + (getField(e, 'supersedes') ? 1 : 0));
    const parts = {
      kind: KIND_SCORE[e.kind] ?? 1,
      confidence: round(COEFF.confidence * clamp(Number(getField(e, 'confidence') ?? 0.5), 0, 1)),
      links: round(COEFF.links * links),
      core: /^(true|yes|1)$/i.test(getField(e, 'core') ?? '') ? COEFF.core : 0,
      weight: round(COEFF.weight * clamp(Number(getField(e, 'weight') ?? 0), 0, 10)),
      recency: round(COEFF.recency * 0.5 ** (ageDays(dateOf(record), week) / COEFF.halfLifeDays)),
    };
    return { record, parts, score: round(Object.values(parts).reduce((a, b) => a + b, 0)) };
  });
  return out.sort((a, b) => b.score - a.score || a.record.id.localeCompare(b.record.id));
}
