/**
 * Decide, don't do: turns extracted candidates into the entries a run would append, given what the
 * workspace already holds. Pure, so the dry run, the tests and the real run share one answer.
 *
 * Idempotency (DESIGN §5, invariant 2): a candidate whose id (or an `-N` version of it) already exists
 * with the same source range or the same conclusion is skipped; the same id with other content gets
 * the next free suffix. Which version of a fact is current is said with `supersedes`, never by
 * overwriting an older entry.
 */
import { makeId, isVersionOf, nextFreeId } from '../../entries/id.js';
import { getField, getSource, type Entry, type Field } from '../../entries/model.js';
import { normalise } from '../../extract/sentences.js';
import type { Candidate } from '../../extract/types.js';
import { candidateMarks, isForgotten, type ForgottenMarks } from '../forgotten.js';
import { covers, sameScope } from './scope-link.js';
import type { Known } from './scope-link.js';
import { sameSaying } from './revision-target.js';
import { findRetracted, findSuperseded, inForce } from './revision-links.js';
import { renderEntry } from '../../entries/render.js';

export interface PlannedEntry {
  day: string;
  id: string;
  entry: Entry;
}

export interface SkippedCandidate {
  id: string;
  reason: 'already-recorded' | 'duplicate';
}

export interface Plan {
  entries: PlannedEntry[];
  skipped: SkippedCandidate[];
  /** Candidates held back as hard-forgotten: counted, never named (the id would be a trace). */
  forgotten: number;
}

export interface PlanInput {
  candidates: Array<Candidate & { day: string; sessionPathStored: string }>;
  existing: Known[];
  /** Marks of hard-forgotten entries (jobs/forgotten.ts); microsync passes them, `mem remember` does not. */
  forgotten?: ForgottenMarks;
}

const range = (c: Candidate) => `${c.firstTurn}-${c.lastTurn}`;

/** The statement's time in UTC (its last turn's), or undefined when the transcript gave none. */
function sourceTime(c: Candidate): string | undefined {
  const ms = Date.parse(c.timestamp);
  return Number.isFinite(ms) ? new Date(ms).toISOString().replace('.000Z', 'Z') : undefined;
}

export function entryFromCandidate(
  c: PlanInput['candidates'][number],
  id: string,
  supersedes?: string,
  retracts?: string,
): Entry {
  const fields: Field[] = [
    { key: 'id', value: id },
    { key: 'date', value: c.day },
  ];
  if (c.origin !== 'manual') {
    fields.push({
      key: 'source',
      value: '',
      children: [
        { key: 'session_id', value: c.sessionId },
        { key: 'session_path', value: c.sessionPathStored },
        { key: 'message_range', value: range(c) },
        // When it was said: a merge gives an id both machines created to the earlier entry (git/merge-ids.ts).
        ...(sourceTime(c) ? [{ key: 'timestamp', value: sourceTime(c)! }] : []),
      ],
    });
  }
  const opt = (key: string, value: string | undefined) => value && fields.push({ key, value });
  opt('why', c.why);
  opt('finding', c.finding);
  fields.push({ key: 'conclusion', value: c.conclusion });
  opt('impact', c.impact);
  fields.push({ key: 'confidence', value: String(Math.round(c.confidence * 100) / 100) });
  fields.push({ key: 'origin', value: c.origin });
  // Who confirmed an agent's statement (entries/standing.ts): without it nothing promotes it.
  if (c.origin === 'agent' && c.confirmedAt !== undefined)
    fields.push({ key: 'confirmed', value: `by the user, message ${c.confirmedAt}` });
  fields.push({ key: 'status', value: 'active' });
  opt('supersedes', supersedes);
  opt('retracts', retracts);
  opt('key', c.key);
  opt('scope', c.scope);
  opt('state', c.state);
  opt('refs', c.refs?.join(', '));
  opt('tags', c.tags?.join(', '));
  return { kind: c.kind, title: c.title, fields };
}

function sameStatement(a: Entry, c: Candidate): boolean {
  return normalise(getField(a, 'conclusion') ?? '') === normalise(c.conclusion);
}

function sameSource(a: Entry, c: Candidate): boolean {
  const s = getSource(a);
  return !!s && s.session_id === c.sessionId && s.message_range === range(c);
}

export function planEntries(input: PlanInput): Plan {
  // A torn rest of a killed append is not a recorded entry: the block planned again from the same
  // candidate starts with its bytes, and appending it makes the writer replace the rest (planAppend).
  const torn = (k: Known) =>
    !!k.tail &&
    input.candidates.some((c) => {
      const block = renderEntry(entryFromCandidate(c, k.id));
      return block.length > k.tail!.length && block.startsWith(k.tail!);
    });
  const known: Known[] = input.existing.filter((k) => !torn(k));
  const plan: Plan = { entries: [], skipped: [], forgotten: 0 };
  // Oldest first, so a revision finds what it revises already planned (sort is stable).
  const ordered = [...input.candidates].sort((a, b) => a.timestamp.localeCompare(b.timestamp));
  for (const c of ordered) {
    if (input.forgotten && isForgotten(input.forgotten, candidateMarks(c))) {
      plan.forgotten++;
      continue;
    }
    const id = makeId(c.kind, c.day, c.title);
    const versions = known.filter((k) => isVersionOf(k.id, id));
    // Also the same session, range and statement under another kind or id (a newer extractor's title or kind).
    if (
      versions.some((k) => sameSource(k.entry, c)) ||
      known.some((k) => sameSource(k.entry, c) && sameSaying(k.entry, c))
    ) {
      plan.skipped.push({ id, reason: 'already-recorded' });
      continue;
    }
    // The same statement of the same kind, still in force, under any id (said again on another day).
    const restated = inForce(known).some(
      (k) => k.entry.kind === c.kind && sameStatement(k.entry, c) && covers(k.entry, c),
    );
    if (restated || versions.some((k) => sameStatement(k.entry, c) && sameScope(k.entry, c))) {
      plan.skipped.push({ id, reason: 'duplicate' });
      continue;
    }
    const free = nextFreeId(id, (x) => known.some((k) => k.id === x));
    const replaced = c.retracting ? undefined : findSuperseded(c, known, c.day);
    // An unscoped revision of a project's entry holds where what it revises held.
    const target =
      replaced === undefined || c.scope !== undefined
        ? undefined
        : getField(known.find((k) => k.id === replaced)!.entry, 'scope');
    // A moved goal keeps the key of the goal it moves, so the next move finds it by key.
    const goalKey =
      c.kind === 'Goal' && replaced ? getField(known.find((k) => k.id === replaced)!.entry, 'key') : undefined;
    const planned = { ...c, ...(target ? { scope: target } : {}), ...(goalKey ? { key: goalKey } : {}) };
    const entry = c.retracting
      ? entryFromCandidate(c, free, undefined, findRetracted(c, known, c.day))
      : entryFromCandidate(planned, free, replaced);
    plan.entries.push({ day: c.day, id: free, entry });
    known.push({ id: free, entry });
  }
  return plan;
}
