/**
 * The sentences of a user turn as the learned scorer sees them: the same pieces the rules read
 * (turn-pieces.ts: quotes, attachments, pasted logs and fences already out; retractions cut off),
 * each with its features and two flags. `marked`: a marker of the rules fires on it, so it is the
 * rules' to take or leave. `gated`: a detector of the rules says it settles nothing (a question,
 * a hedge, a condition, someone else's words or habit, the past, a retraction or cancel after it,
 * anything leftOpen finds in its message). The model may only speak for a piece that is neither.
 */
import type { Turn } from '../transcripts/types.js';
import { notNow, othersPractice, unsettledBy } from './hedges.js';
import { leftOpen } from './left-open.js';
import { pieceFeatures, type PieceContext } from './model-features.js';
import { withoutQuotes } from './sentences.js';
import { CANCEL, namedRetraction, REPORTED, REPLACES_EARLIER } from './speech-acts.js';
import { matchMarker } from './statement.js';
import { pieces } from './turn-pieces.js';
import { RETRACTION, UNSETTLED } from './unsettled.js';

export interface ScoredPiece {
  text: string;
  ctx: PieceContext;
  features: string[];
  marked: boolean;
  gated: boolean;
}

/** A piece that takes back, or holds open, what was said before it in the message. */
const takesBack = (s: string) => {
  const own = withoutQuotes(s);
  return RETRACTION.test(s) || CANCEL.test(own) || unsettledBy(own) === 'undecided' || unsettledBy(own) === 'pending';
};

export function modelPieces(turn: Turn, afterAgent: boolean, answersStatement: boolean): ScoredPiece[] {
  const { list, corrected } = pieces(turn, afterAgent, answersStatement);
  const markers = list.map((s) => matchMarker(s));
  return list.map((text, i) => {
    const own = withoutQuotes(text);
    const ctx: PieceContext = { index: i, count: list.length, afterAgent, corrected: corrected[i] ?? false };
    const gated =
      RETRACTION.test(text) ||
      namedRetraction(own) !== undefined ||
      UNSETTLED.test(own) ||
      CANCEL.test(own) ||
      REPORTED.test(own) ||
      REPLACES_EARLIER.test(own) ||
      othersPractice(own) ||
      notNow(own) ||
      leftOpen(list, i, markers, turn, 0) ||
      list.slice(i + 1).some(takesBack);
    return { text, ctx, features: pieceFeatures(text, ctx), marked: markers[i] !== undefined, gated };
  });
}
