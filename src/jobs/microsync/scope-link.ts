/**
 * How the planner links within a scope (DESIGN §5, issue 27): the same key supersedes only in the
 * same scope, a statement is a duplicate only of one in the same scope, and a retraction names the
 * entry in force it takes back. Pure; plan.ts asks these instead of comparing keys or texts alone.
 */
import { getField, type Entry } from '../../entries/model.js';
import { scopeKey } from '../../entries/scope-key.js';
import { contentTokens, jaccard } from '../../entries/similarity.js';
import type { Candidate } from '../../extract/types.js';

/** One scope: compared as scope-key.ts says; two unscoped statements share the (no) scope. */
export function sameScope(entry: Entry, c: Pick<Candidate, 'scope'>): boolean {
  return scopeKey(getField(entry, 'scope') ?? '') === scopeKey(c.scope ?? '');
}

/** An entry that already says it for the candidate's scope: one of the same scope, or a global one (it holds everywhere). */
export function covers(entry: Entry, c: Pick<Candidate, 'scope'>): boolean {
  return sameScope(entry, c) || scopeKey(getField(entry, 'scope') ?? '') === 'global';
}

/** The newest entry in force with the candidate's key in its scope. */
export function sameKeyIn(c: Candidate, active: Known[]): string | undefined {
  if (!c.key) return undefined;
  return active.filter((k) => getField(k.entry, 'key') === c.key && sameScope(k.entry, c)).at(-1)?.id;
}

/** Below this share of content words a retraction names nothing rather than a wrong entry. */
export const RETRACTION_SIMILARITY = 0.25;

/** Words that say a retraction, not what it takes back. */
const RETRACT_WORDS =
  /\b(?:that['’]?s|is|was|wrong|not|true|forget|about|scratch|drop|retract(?:ed)?|no\s+longer|decision|rule|note|anymore|never\s+mind)\b|不对|不對|错了|錯了|忘掉|忘了|撤回|取消|作废|作廢/gi;

/**
 * The entry a retraction takes back: an explicit id, the same key in the same scope, else the entry
 * in force of the same scope most like it (any kind: "forget the Redis decision" names a Decision).
 */
export function retractedBy(c: Candidate, active: Known[]): string | undefined {
  if (c.supersedes && active.some((k) => k.id === c.supersedes)) return c.supersedes;
  const byKey = sameKeyIn(c, active);
  if (byKey) return byKey;
  const mine = contentTokens(`${c.title} ${c.conclusion}`.replace(RETRACT_WORDS, ' '));
  let best: { id: string; score: number } | undefined;
  for (const k of active) {
    if (!sameScope(k.entry, c) || k.entry.kind === 'Task') continue;
    const score = jaccard(mine, contentTokens(`${k.entry.title} ${getField(k.entry, 'conclusion') ?? ''}`));
    if (score >= RETRACTION_SIMILARITY && (!best || score >= best.score)) best = { id: k.id, score };
  }
  return best?.id;
}

export interface Known {
  id: string;
  entry: Entry;
  /** The entry's text when it ends its file without a final newline: maybe the torn rest of a killed append. */
  tail?: string;
}
