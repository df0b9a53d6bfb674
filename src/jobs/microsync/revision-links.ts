/**
 * Which earlier entry a candidate replaces or retracts (microsync's planner asks, plan.ts): an
 * explicit id, a correction said right after a statement of its kind, the same key, a task's state,
 * what the statement names, then, for a statement saying it changes something, the most similar entry
 * of a related kind in the same scope. Only entries still in force are candidates. Pure.
 */
import { getField, idList, supersedesOf, type Kind } from '../../entries/model.js';
import { contentTokens, jaccard } from '../../entries/similarity.js';
import { REVISION } from '../../extract/markers.js';
import type { Candidate } from '../../extract/types.js';
import { retractedBy, sameKeyIn, sameScope, type Known } from './scope-link.js';
import { justBefore, revisionTarget, taskTarget } from './revision-target.js';

/**
 * Below this similarity of content words (two in five shared) a revision names no predecessor rather
 * than a wrong one: rules sharing "always" and "deploy" are not one rule said twice.
 */
export const REVISION_SIMILARITY = 0.4;

/**
 * What a statement says to replace an earlier one: "instead", "no longer", "now", "改为", "不再"...
 * Found by similarity alone, a predecessor is named only for a statement saying one of them; the
 * phrase says that something changed, not what, so it is left out of the comparison.
 */
const CHANGE_WORDS = new RegExp(`${REVISION.source}|\\b(?:instead|now|anymore)\\b|现在|現在`, 'gi');

const about = (statement: string) => contentTokens(statement.replace(CHANGE_WORDS, ' '));

const RELATED: Record<Kind, Kind[]> = {
  Decision: ['Decision', 'Architecture'],
  Architecture: ['Architecture', 'Decision'],
  Rule: ['Rule'],
  Note: ['Note'],
  Preference: ['Preference'],
  Goal: ['Goal'],
  Task: ['Task'],
  Lesson: ['Lesson'],
};

/**
 * Entries still in force: status active and named by no other entry's `supersedes` (a list, as lint
 * reads it). Microsync never rewrites an older file, so a replaced entry keeps `status: active` until
 * compound flips it; counting it as current would make "go back to X" look like a restatement of X.
 */
export function inForce(known: Known[]): Known[] {
  const replaced = new Set(known.flatMap((k) => [...supersedesOf(k.entry), ...idList(getField(k.entry, 'retracts'))]));
  return known.filter((k) => (getField(k.entry, 'status') ?? 'active') === 'active' && !replaced.has(k.id));
}

/**
 * The active entry this candidate replaces: explicit id, then same key, then, for a revision saying
 * it changes something, the most similar entry of a related kind, the same scope and no other key.
 */
export function findSuperseded(c: Candidate, known: Known[], day?: string): string | undefined {
  // A statement can only replace what was said before it (a back-fill meets later entries first).
  const active = inForce(known).filter((k) => !day || (getField(k.entry, 'date') ?? '') <= day);
  if (c.supersedes && known.some((k) => k.id === c.supersedes)) return c.supersedes;
  // Scopes are compared as everywhere (scope-link.ts sameScope); a revision replaces only a related kind with no other key
  // (a goal's key is a slug of its wording, so a moved goal's differs).
  const inScope = active.filter((k) => sameScope(k.entry, c));
  const related = (k: Known) => RELATED[c.kind].includes(k.entry.kind as Kind);
  const fits = (k: Known) =>
    related(k) && (c.kind === 'Goal' || !(c.key && getField(k.entry, 'key') && getField(k.entry, 'key') !== c.key));
  const statement = `${c.title} ${c.conclusion}`;
  // A change said right after a statement of its kind in the same session revises that one, before a key
  // shared with another session's entry ("Actually, no: the worker subscribes to Postgres…").
  // It must be about the same thing: a correction, a goal moved, or a content word shared ("日志改用 pino" does not revise "缓存用 Redis").
  const shares = (k: Known) =>
    c.corrects === true ||
    c.kind === 'Goal' ||
    jaccard(about(statement), about(`${k.entry.title} ${getField(k.entry, 'conclusion') ?? ''}`)) > 0;
  const near =
    c.revises && (c.corrects === true || statement.search(CHANGE_WORDS) >= 0)
      ? justBefore(
          c,
          inScope.filter((k) => fits(k) && shares(k)),
        )
      : undefined;
  if (near) return near;
  const byKey = sameKeyIn(c, active);
  if (byKey) return byKey;
  // "The login task is done": a state update of the open task it names, in the same scope.
  if (c.kind === 'Task' && c.state && c.state !== 'todo') {
    const task = taskTarget(c, inScope);
    if (task) return task;
  }
  if (!c.revises && !c.supersedes) return undefined;
  // What the statement names ("instead of SQLite", "Monday's decision", "forget the Redis decision") first.
  // A session whose folder nothing records may revise any project's entry, but only one it names.
  const named = revisionTarget(c, c.scope === undefined ? active : inScope, fits, day);
  if (named) return named;
  if (statement.search(CHANGE_WORDS) < 0) return undefined;
  const mine = about(statement);
  let best: { id: string; score: number } | undefined;
  for (const k of inScope.filter(fits)) {
    const score = jaccard(mine, about(`${k.entry.title} ${getField(k.entry, 'conclusion') ?? ''}`));
    if (score >= REVISION_SIMILARITY && (!best || score > best.score)) best = { id: k.id, score };
  }
  return best?.id;
}

/** What a retraction retracts: the entry it names ("forget the Redis decision"), else the one it restates. */
export function findRetracted(c: Candidate, known: Known[], day: string): string | undefined {
  const before = inForce(known).filter((k) => (getField(k.entry, 'date') ?? '') <= day);
  const named = revisionTarget(
    c,
    before.filter((k) => sameScope(k.entry, c)),
    (k) => RELATED[c.kind].includes(k.entry.kind as Kind),
    day,
  );
  return named ?? retractedBy(c, before);
}
