/**
 * What the user's next message does to the statement of the message before it (issue 27): "that's
 * wrong" or "scratch that" alone retracts it, which microsync writes as a new entry of its kind with
 * `retracts:` (the statement stays; compound flips it), while a new statement after the retraction
 * that shares its subject ("Oh wait, never mind. From now on we deploy on Wednesdays") corrects it.
 * Before, the statement was dropped from the batch, so a statement written by an earlier run could
 * never be taken back and the labelled set's retractions never landed. A sentence naming what it
 * retracts ("forget the Redis decision") is a retraction of its own, matched by the planner.
 */
import type { Kind } from '../entries/model.js';
import type { Turn } from '../transcripts/types.js';
import { REVISION } from './markers.js';
import { capitalise, normalise, sentences, stripQuoted, trimEnd, withoutQuotes } from './sentences.js';
import { CANCEL, namedRetraction, REPORTED } from './speech-acts.js';
import { build, titleFrom } from './statement.js';
import { UNSETTLED } from './unsettled.js';
import { topicOf } from './topics.js';
import type { Candidate } from './types.js';

/**
 * The entry taking back `earlier` from the user's next turn: its kind, restating it (the planner finds
 * what it retracts by key or by the words it restates, jobs/microsync/scope-link.ts retractedBy).
 */
export function retractionOf(earlier: Candidate, turn: Turn): Candidate {
  const said = normalise(sentences(stripQuoted(turn.text))[0] ?? '');
  return {
    ...earlier,
    title: titleFrom(`Retracted: ${earlier.title}`),
    conclusion: `${capitalise(trimEnd(said) || 'Taken back')}: retracts "${trimEnd(earlier.conclusion)}"`,
    retracting: true,
    revises: false,
    corrects: undefined,
    why: undefined,
    finding: undefined,
    confidence: 0.85,
    origin: 'user',
    confirmedAt: undefined,
    firstTurn: turn.index,
    lastTurn: turn.index,
    timestamp: turn.timestamp ?? earlier.timestamp,
  };
}

const STOP = new Set([
  'the',
  'and',
  'for',
  'from',
  'now',
  'on',
  'with',
  'that',
  'this',
  'never',
  'always',
  'only',
  'use',
  'we',
  'our',
  'all',
  'not',
  'instead',
  'make',
  'let',
  'lets',
]);
/** Content words: Latin words of 3+ letters, CJK as two-character pieces. */
function subjectWords(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of normalise(text).split(/[^\p{L}\p{N}.+-]+/u)) {
    if (/\p{sc=Han}/u.test(w))
      Array.from(w).forEach(
        (ch, i, all) => i + 1 < all.length && /\p{sc=Han}{2}/u.test(ch + all[i + 1]) && out.add(ch + all[i + 1]),
      );
    else if (w.length >= 3 && !STOP.has(w)) out.add(w.replace(/(?:ing|ed|es|s)$/, ''));
  }
  return out;
}
/** A new statement after "never mind" corrects the earlier one when it is of its kind and shares a word, a topic or says it replaces something. */
export function sharesSubject(earlier: Candidate, now: Candidate): boolean {
  if (earlier.kind !== now.kind) return false;
  // "That's wrong, we're not adding GraphQL": a denial restates the retraction, it replaces nothing.
  if (
    /\bnot\b|n['’]t\b|\bno\s+more\b|不(?:要|用|做|加)|[别別]/i.test(now.conclusion) &&
    !/\binstead\b|改[成为為用]|[换換]成/i.test(now.conclusion)
  )
    return false;
  // "nvm, use memcached instead": a replacement said as one; or the same topic ("use yarn" → "nvm, pnpm").
  if (
    REVISION.test(now.conclusion) ||
    /\binstead\b/i.test(now.conclusion) ||
    (topicOf(now.conclusion) && topicOf(now.conclusion) === topicOf(earlier.conclusion))
  )
    return true;
  const mine = subjectWords(`${now.title} ${now.conclusion}`);
  return [...subjectWords(`${earlier.title} ${earlier.conclusion}`)].some((w) => mine.has(w));
}

const KIND_WORDS: Record<string, Kind> = {
  decision: 'Decision',
  plan: 'Decision',
  idea: 'Decision',
  决定: 'Decision',
  決定: 'Decision',
  rule: 'Rule',
  规则: 'Rule',
  規則: 'Rule',
  note: 'Note',
  preference: 'Preference',
  goal: 'Goal',
  task: 'Task',
  lesson: 'Lesson',
};

/** "Forget the Redis decision": a candidate that names what it retracts; the planner finds it. */
export function namedRetractionIn(s: string, turns: Turn[], turn: Turn): Candidate | undefined {
  const own = withoutQuotes(s);
  const named = namedRetraction(own);
  // "Should we forget the Redis decision?", "Bob said scrap the Friday rule": nothing retracted.
  if (!named || UNSETTLED.test(own) || CANCEL.test(own) || REPORTED.test(own)) return undefined;
  const kind = KIND_WORDS[named.kindWord ?? ''] ?? 'Decision';
  const c = build({ kind, text: s, confidence: 0.85, revises: true }, turns, turn, turn, 'user');
  return c && { ...c, retracting: true, title: titleFrom(s) };
}
