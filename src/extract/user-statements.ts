/**
 * What one user turn settles: each piece (turn-pieces.ts) with a marker becomes a candidate unless
 * the gate or its message leaves it open; a pointer ("We decided that.") takes the sentence it
 * points at; a cause then its fix is one lesson; a retraction takes back the statement before it,
 * or, opening the turn, the previous turn's (rules.ts applies that). Only the user's own words:
 * quotes, reported speech and pasted material were taken out before (rules.ts header).
 */
import type { Kind } from '../entries/model.js';
import type { Turn } from '../transcripts/types.js';
import { settlingClause } from './clause.js';
import { TASK_TAG_LAST } from './duty-markers.js';
import { holdsOpen, othersRule } from './hedges.js';
import { CAUSE, FIXED, PLAIN_CHOICE, PLAIN_SHAPE, type Marker } from './kind-markers.js';
import { leftOpen } from './left-open.js';
import { namedRetractionIn } from './retraction.js';
import { capitalise, normalise, trimEnd, withoutQuotes } from './sentences.js';
import { CANCEL, CORRECTION, REPLACES_EARLIER, REPORTED } from './speech-acts.js';
import { build, matchMarker } from './statement.js';
import { pieces } from './turn-pieces.js';
import type { Candidate } from './types.js';
import { RETRACTION, UNSETTLED } from './unsettled.js';

/** "We decided that." points at the sentence before it; "Remember this:" (ending in a colon) at the one after. */
const POINTER = /^(?:that|this|it|so|这个|這個|这样|這樣)?$/i;
const POINTS_AHEAD = /[:：]$/;

/** A standing phrase said last: "Use `from:(x)` to search from now on." states the rule before it. */
const TRAILING =
  /[\s,，]*\b(?:from\s+now\s+on|going\s+forward|from\s+here\s+on(?:\s+out)?)\b[\s.!。！]*$|[，,]?\s*(?:以[后後]都?[这這][样樣]|[从從][现現]在[开開]始)[。！!.]*$/i;

/** "No, use pnpm" after the agent's turn: the correction is a decision that revises what it corrects. */
const CORRECTED: Marker = { kind: 'Decision', confidence: 0.8, re: CORRECTION, topical: true };

/** A sentence telling a problem's cause with no marker of its own: with a fix said next, the two are a lesson. */
const TOLD_CAUSE = new RegExp(
  `${CAUSE.source}|\\bturn(?:s|ed)\\s+out\\b|\\bthe\\s+(?:real\\s+)?(?:problem|issue|bug|culprit)\\s+(?:was|is)\\b`,
  'i',
);

export interface UserSaid {
  statements: Candidate[];
  /** The turn opens by taking back what the user said before ("Scratch that.", "Oh wait, never mind."). */
  retractsEarlier: boolean;
}

const told = (s: string) =>
  TOLD_CAUSE.test(withoutQuotes(s)) && !UNSETTLED.test(withoutQuotes(s)) && !REPORTED.test(withoutQuotes(s));

export function userStatements(turn: Turn, turns: Turn[], afterAgent: boolean, before?: Kind): UserSaid {
  const { list, corrected: corrects } = pieces(turn, afterAgent, before !== undefined);
  const named = list.map((s) => namedRetractionIn(s, turns, turn));
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
      !othersRule(own) &&
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
