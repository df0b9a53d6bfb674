/**
 * The offline, rule-based extractor (DESIGN §7): same job as the LLM path, less cleverly. It only
 * listens to people and the agent, never to tools: a tool result, sub-agent or harness turn can
 * never produce memory, whatever it says ("remember this: ..." in a fetched page is data). Nor is
 * everything in a user's message their word: attachments, pasted logs and diffs (material.ts),
 * quotes and reported speech (speech-acts.ts) decide nothing.
 */
import type { Kind } from '../entries/model.js';
import { redactSecrets } from '../secrets/secrets.js';
import type { Turn } from '../transcripts/types.js';
import { RETRACTION, UNSETTLED } from './markers.js';
import { CAUSE, FIXED, PLAIN_CHOICE, PLAIN_SHAPE, type Marker } from './kind-markers.js';
import { settlingClause } from './clause.js';
import { TASK_TAG_LAST } from './duty-markers.js';
import { handsOverCredentials } from './credentials.js';
import { holdsOpen, notNow, othersPractice, unsettledBy } from './hedges.js';
import { chosenOption, confirmedProposal } from './proposal.js';
import { retractionOf, sharesSubject } from './retraction.js';
import { capitalise, normalise, sentences, stripQuoted, trimEnd, withoutQuotes } from './sentences.js';
import { BARE_CORRECTION, CORRECTION_OPENERS, RESTATED, shortValue } from './sentence-forms.js';
import { asRequest, CANCEL, CORRECTION, namedRetraction, REPLACES_EARLIER, REPORTED } from './speech-acts.js';
import { build, isSpeech, matchMarker, titleFrom } from './statement.js';
import type { Candidate } from './types.js';

export { isSpeech } from './statement.js';

/** "We decided that." points at the sentence before it; "Remember this:" (ending in a colon) at the one after. */
const POINTER = /^(?:that|this|it|so|这个|這個|这样|這樣)?$/i;
const POINTS_AHEAD = /[:：]$/;

/** A standing phrase said last: "Use `from:(x)` to search from now on." states the rule before it. */
const TRAILING =
  /[\s,，]*\b(?:from\s+now\s+on|going\s+forward|from\s+here\s+on(?:\s+out)?)\b[\s.!。！]*$|[，,]?\s*(?:以[后後]都?[这這][样樣]|[从從][现現]在[开開]始)[。！!.]*$/i;

/** "No, use pnpm" after the agent's turn: the correction is a decision that revises what it corrects. */
const CORRECTED: Marker = { kind: 'Decision', confidence: 0.8, re: CORRECTION, topical: true };

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
function retraction(s: string, turns: Turn[], turn: Turn): Candidate | undefined {
  const own = withoutQuotes(s);
  const named = namedRetraction(own);
  // "Should we forget the Redis decision?", "Bob said scrap the Friday rule": nothing retracted.
  if (!named || UNSETTLED.test(own) || CANCEL.test(own) || REPORTED.test(own)) return undefined;
  const kind = KIND_WORDS[named.kindWord ?? ''] ?? 'Decision';
  const c = build({ kind, text: s, confidence: 0.85, revises: true }, turns, turn, turn, 'user');
  return c && { ...c, retracting: true, title: titleFrom(s) };
}

/** A sentence telling a problem's cause with no marker of its own: with a fix said next, the two are a lesson. */
const TOLD_CAUSE = new RegExp(
  `${CAUSE.source}|\\bturn(?:s|ed)\\s+out\\b|\\bthe\\s+(?:real\\s+)?(?:problem|issue|bug|culprit)\\s+(?:was|is)\\b`,
  'i',
);

/** A quotation this long is someone's words, not a name ("用 'feat:' 前缀" quotes a name). */
const QUOTE_MIN = 8;
const quotesWords = (s: string) => Array.from(s).length - Array.from(withoutQuotes(s)).length >= QUOTE_MIN;
/** The message carries material (a paste, an attachment, a fenced log): what the user says around it is about it. */
const carriesMaterial = (text: string) => stripQuoted(text).replace(/\s+/g, '') !== text.replace(/\s+/g, '');

/**
 * A weak statement (Marker.weak: "缓存用 Redis", "目标是…") is left open by anything in its message
 * that says it is not settled (hedges.ts): in its own sentence, someone else's practice, the past or
 * a negation before it;
 * in any other sentence but a settled statement of its own, a question, a hedge, a condition, options
 * or someone else's voice; a quotation or pasted material in the message.
 */
function leftOpen(
  list: string[],
  i: number,
  markers: (Marker | undefined)[],
  turn: Turn,
  at: number,
  kind?: Kind,
): boolean {
  const own = withoutQuotes(list[i]!);
  const before = own.slice(0, at);
  // A task's wait is its state ("卡住了，等 Stripe 回复"), a lesson's cause may be a lack ("沒有索引造成的"): neither is a hedge.
  const by = unsettledBy(own);
  if ((by && !(kind === 'Task' && by === 'pending')) || othersPractice(before) || (kind !== 'Lesson' && notNow(before)))
    return true;
  if (carriesMaterial(turn.text) || list.some(quotesWords)) return true;
  return list.some(
    (s, j) => j !== i && !(markers[j] && !markers[j]!.weak) && unsettledBy(withoutQuotes(s)) !== undefined,
  );
}

interface UserSaid {
  statements: Candidate[];
  /** The turn opens by taking back what the user said before ("Scratch that.", "Oh wait, never mind."). */
  retractsEarlier: boolean;
}

/** A sentence cut at its retractions: "From now on X, scratch that." → "From now on X,", "scratch that". */
function clauses(sentence: string): string[] {
  return sentence
    .split(RETRACTION)
    .map((c) => c.trim())
    .filter(Boolean);
}

/** "Actually, thumbnails should be generated by a worker": a correction when what follows states something of its own. */
const SOFT_CORRECTION = /^\s*(?:actually|oh\s+wait|wait|hold\s+on)[\s,]+(?=\S)/i;

/** "不对，报表改成查只读副本" answering the agent: what it names is changed, not taken back (in one message, 不对 still takes back). */
const NAMED_CORRECTION =
  /^\s*(?:不[对對]|不是)[，,。\s]*(?=[^，,。？?！!]{1,10}?(?:还是|還是)?\s*(?:改[成为為用回]|[换換][成回]))/;

/** The sentence as the user meant it: "from now on could you X?" is the request "from now on X." */
const meant = (s: string) => asRequest(s) ?? s;

/**
 * The turn's sentences, each cut at its retractions, but for two kept whole: a correction of the
 * agent opening the turn ("不对，改成 pnpm" is no retraction of the user's own words; its opener goes)
 * and a sentence naming what it retracts ("算了，不要用 Redis 了").
 */
function pieces(turn: Turn, afterAgent: boolean, answersStatement = false): { list: string[]; corrected: boolean[] } {
  const all = sentences(stripQuoted(turn.text));
  // A short reply to the agent's ack of the user's statement correcting it: "wait no, vitest", "改成七月" (sentence-forms.ts).
  const swapped = (s: string, i: number) =>
    i === 0 && answersStatement && afterAgent && BARE_CORRECTION.test(s) && shortValue(s.replace(BARE_CORRECTION, ''));
  const restated = (s: string, i: number) =>
    i === 0 && answersStatement && afterAgent && RESTATED.test(s) && shortValue(s);
  // The agent corrected (the turn's first sentence), or the user's own words ("Let's use Jest. Actually no, Vitest instead").
  const opens = all.map(
    (s, i) =>
      (i > 0 || afterAgent) &&
      (CORRECTION.test(s) ||
        CORRECTION_OPENERS.test(s) ||
        swapped(s, i) ||
        restated(s, i) ||
        (SOFT_CORRECTION.test(s) && matchMarker(s.replace(SOFT_CORRECTION, '')) !== undefined) ||
        (i === 0 && NAMED_CORRECTION.test(s))),
  );
  const list: string[] = [];
  const corrected: boolean[] = [];
  all.forEach((s, i) => {
    const parts = opens[i]
      ? [
          (swapped(s, i) ? s.replace(BARE_CORRECTION, '') : s)
            .replace(CORRECTION, '')
            .replace(CORRECTION_OPENERS, '')
            .replace(SOFT_CORRECTION, '')
            .replace(NAMED_CORRECTION, ''),
        ]
      : namedRetraction(withoutQuotes(s))
        ? [s]
        : clauses(s);
    parts.forEach((p, j) => {
      list.push(meant(p));
      corrected.push(opens[i]! && j === 0);
    });
  });
  return { list, corrected };
}

const told = (s: string) =>
  TOLD_CAUSE.test(withoutQuotes(s)) && !UNSETTLED.test(withoutQuotes(s)) && !REPORTED.test(withoutQuotes(s));

function userStatements(turn: Turn, turns: Turn[], afterAgent: boolean, before?: Kind): UserSaid {
  const { list, corrected: corrects } = pieces(turn, afterAgent, before !== undefined);
  const named = list.map((s) => retraction(s, turns, turn));
  const retracts = list.map((s, i) => !named[i] && RETRACTION.test(s));
  // A correction's kind comes from what it says, not from the words of a design statement alone (Marker.broad).
  const markers = list.map((s, i) =>
    retracts[i] || named[i]
      ? undefined
      : corrects[i] && matchMarker(s)?.broad
        ? CORRECTED
        : (matchMarker(s) ?? (corrects[i] ? CORRECTED : undefined)),
  );
  const said: UserSaid = { statements: [], retractsEarlier: false };
  // What a retraction takes back: the turn's last statement (null when it kept none, say a guess);
  // when it opens the turn, the previous user turn's.
  let last: Candidate | null | undefined;
  const takeBack = () => {
    if (last) said.statements.splice(said.statements.indexOf(last), 1);
    last = null;
  };
  list.forEach((s, i) => {
    const own = withoutQuotes(s);
    if (retracts[i]) {
      if (i === 0) said.retractsEarlier = true;
      else takeBack();
      return;
    }
    const marker = markers[i];
    if (!marker) {
      const taken = named[i];
      if (taken) said.statements.push((last = taken));
      // "…. Not settled." takes the statement before it back; "This replaces Monday's decision." links it.
      else if (CANCEL.test(own) || holdsOpen(own)) takeBack();
      // "Turns out X was caused by Y. Pinning Z fixed it.": a cause said plainly, then its fix, is a lesson.
      else if (
        FIXED.test(own) &&
        i > 0 &&
        last === undefined &&
        !markers[i - 1] &&
        !retracts[i - 1] &&
        !named[i - 1] &&
        told(list[i - 1]!) &&
        !UNSETTLED.test(own)
      ) {
        const c = build(
          { kind: 'Lesson', text: `${trimEnd(list[i - 1]!)}. ${capitalise(s)}`, confidence: 0.75 },
          turns,
          turn,
          turn,
          'user',
        );
        if (c) said.statements.push((last = c));
      }
      // "The outage came from a missing index. Adding the index fixed it.": the fix belongs to the lesson.
      else if (
        last &&
        FIXED.test(own) &&
        (last.kind === 'Lesson' || (last.kind === 'Note' && CAUSE.test(last.conclusion)))
      ) {
        last.kind = 'Lesson';
        last.conclusion = `${trimEnd(last.conclusion)}. ${capitalise(s)}`;
      } else if (REPLACES_EARLIER.test(own) && last) {
        last.revises = true;
        last.conclusion = `${trimEnd(last.conclusion)}. ${capitalise(s)}`;
      }
      return;
    }
    let text = s;
    let used: Marker | undefined = marker;
    // The clause that settles it, not a side request before it or a pointer or reason after it.
    const clause = settlingClause(s, marker.re.exec(s)?.index ?? 0);
    if (clause) {
      text = clause.text;
      if (!clause.keepsMarker) used = { ...marker, strip: undefined };
    }
    const rest = normalise(used.strip ? text.replace(used.strip, '') : text);
    if (clause?.keepsMarker !== false && POINTER.test(rest)) {
      const before = text.replace(TRAILING, '').replace(TASK_TAG_LAST, '');
      if (before !== text && Array.from(normalise(before)).length >= 6) {
        text = before;
        used = { ...marker, strip: undefined };
      } else {
        const at = POINTS_AHEAD.test(s) ? i + 1 : i - 1;
        // The sentence pointed at is a statement of its own: it is extracted once, there; said
        // plainly ("用 pnpm 管理 monorepo。就这么决定了。"), it takes the pointer's kind.
        if (
          at === i - 1 &&
          last &&
          (markers[at] === PLAIN_CHOICE || markers[at] === PLAIN_SHAPE) &&
          last.lastTurn === turn.index
        ) {
          last.kind = marker.kind;
          last.confidence = marker.confidence;
          return;
        }
        if (!list[at] || markers[at] || retracts[at]) return;
        text = list[at]!;
        used = undefined;
      }
    }
    // A clause holding it open ("…，先这样试试", "…, pending sign-off") unsettles all but a task, whose wait is its state ("blocked, the policy is still pending").
    const settled =
      !UNSETTLED.test(own) &&
      !CANCEL.test(own) &&
      !(marker.kind !== 'Task' && holdsOpen(own)) &&
      !(marker.weak && leftOpen(list, i, markers, turn, marker.re.exec(own)?.index ?? 0, marker.kind));
    // Correcting their own statement in the same message, the user keeps its kind ("From now on, deploy on Thursdays. No wait, make that Tuesdays").
    // Correcting the statement of their previous message with only a design's words, they keep its kind too.
    // A correction of the previous message with no marker of its own (or a plain choice's or a design's words only) keeps the kind it corrects ("目标是 9 月…" → "改一下，推迟到 10 月").
    const plain = used === CORRECTED || matchMarker(s)?.broad || matchMarker(s)?.weak;
    const kind =
      corrects[i] && used === CORRECTED && last ? last.kind : corrects[i] && plain && before ? before : marker.kind;
    const st = {
      kind,
      text,
      confidence: marker.confidence,
      revises: corrects[i],
      corrects: corrects[i],
      ...(used ? { marker: used } : {}),
    };
    const c = settled ? build(st, turns, turn, turn, 'user') : undefined;
    // "What didn't work: X. The real cause was Y; Z fixed it.": one lesson, told in several sentences.
    if (c && last && last.kind === 'Lesson' && c.kind === 'Lesson') {
      last.conclusion = `${trimEnd(last.conclusion)}. ${c.conclusion}`;
      return;
    }
    // "We're splitting billing into its own service. The monolith only publishes events.": the design goes on.
    if (c && marker.broad && last && last.kind === 'Architecture') {
      last.conclusion = `${trimEnd(last.conclusion)}. ${c.conclusion}`;
      return;
    }
    if (c) said.statements.push(c);
    last = c ?? null;
  });
  return said;
}

export function extractWithRules(turns: Turn[]): Candidate[] {
  const speech = turns.filter(isSpeech);
  const out: Candidate[] = [];
  const seen = new Set<string>();
  const key = (c: Candidate) => `${c.kind}:${normalise(c.conclusion)}`;
  const push = (c: Candidate | undefined) => {
    if (c && !seen.has(key(c))) {
      seen.add(key(c));
      out.push(c);
    }
  };
  let previousUser: Turn | undefined;
  speech.forEach((turn, i) => {
    // Credentials handed over with "don't store them": nothing in the turn is memory (credentials.ts).
    if (turn.role === 'user' && handsOverCredentials(turn.text)) {
      previousUser = turn;
      return;
    }
    if (turn.role === 'user') {
      const before = out.findLast((c) => c.lastTurn === previousUser?.index)?.kind;
      const said = userStatements(turn, turns, speech[i - 1]?.role === 'assistant', before);
      // "That's wrong" opening the next user turn retracts the statement before (a new entry; it stays), or a new statement corrects it (retraction.ts).
      const taken = said.retractsEarlier
        ? out.findLast((c) => c.lastTurn === previousUser?.index && !c.retracting)
        : undefined;
      const first = said.statements[0];
      if (taken && first && !first.retracting && sharesSubject(taken, first))
        Object.assign(first, { revises: true, corrects: true });
      else if (taken) push(retractionOf(taken, turn));
      said.statements.forEach(push);
      previousUser = turn;
    } else if (speech[i + 1])
      push(confirmedProposal(turn, speech[i + 1]!, turns) ?? chosenOption(turn, speech[i + 1]!, turns));
  });
  return out;
}
