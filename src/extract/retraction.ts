/**
 * What the user's next message does to the statement of the message before it (issue 27): "that's
 * wrong" or "scratch that" alone retracts it, which microsync writes as a new entry of its kind with
 * `retracts:` (the statement stays; compound flips it), while a new statement after the retraction
 * that shares its subject ("Oh wait, never mind. From now on we deploy on Wednesdays") corrects it.
 * Before, the statement was dropped from the batch, so a statement written by an earlier run could
 * never be taken back and the labelled set's retractions never landed.
 */
import type { Turn } from '../transcripts/types.js';
import { REVISION } from './markers.js';
import { capitalise, normalise, sentences, stripQuoted, trimEnd } from './sentences.js';
import { titleFrom } from './statement.js';
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
