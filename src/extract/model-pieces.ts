/**
 * The sentences of a user turn as the learned scorer sees them: the same pieces the rules read
 * (turn-pieces.ts: quotes, attachments, pasted logs and fences already out; retractions cut off),
 * each with its features and two flags. `marked`: a marker of the rules fires on it, so it is the
 * rules' to take or leave. `gated`: a detector of the rules says it settles nothing (a question,
 * a hedge, a condition, someone else's words or habit, the past, a retraction or cancel after it,
 * anything leftOpen finds in its message), or it is no standing statement (NOT_STANDING, or an
 * "Always"/"Never" that describes: markers.ts DESCRIBED_ALWAYS). The model may only speak for a piece that is neither.
 */
import type { Turn } from '../transcripts/types.js';
import { notNow, othersPractice, unsettledBy } from './hedges.js';
import { leftOpen } from './left-open.js';
import { DESCRIBED_ALWAYS } from './markers.js';
import { pieceFeatures, type PieceContext } from './model-features.js';
import { withoutQuotes } from './sentences.js';
import { CANCEL, namedRetraction, REPORTED, REPLACES_EARLIER } from './speech-acts.js';
import { matchMarker } from './statement.js';
import { pieces } from './turn-pieces.js';
import { RETRACTION, UNSETTLED } from './unsettled.js';

/**
 * What the rules' markers tell by their form and a model reading words cannot: a one-off ("Use 4
 * spaces here", "这次先…"), a habit told in the first person ("I never use tabs"), a complaint ("we're
 * using Redux wrong"). Each landed through a model trained on dev alone (docs/extraction-model.md).
 */
const NOT_STANDING =
  /\b(?:here|this\s+(?:one|time|once|file|pr|branch|function|test)|just\s+(?:this|once)|for\s+now|today|tonight|right\s+now)\b|^\s*i\s+(?:never|always|usually|often|sometimes|rarely|mostly)\b|\b(?:wrong|broken|buggy|weird|annoying|terrible|sucks?)\b|[这這](?:里|裡|次)|今天|[暂暫]时|[暂暫]時/i;

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
      NOT_STANDING.test(own) ||
      DESCRIBED_ALWAYS.test(own) ||
      leftOpen(list, i, markers, turn, 0) ||
      list.slice(i + 1).some(takesBack) ||
      // Corrected later in its own message ("代码注释用英文写。算了，改成中文注释吧"), it was not the user's last word.
      corrected.slice(i + 1).some(Boolean);
    return { text, ctx, features: pieceFeatures(text, ctx), marked: markers[i] !== undefined, gated };
  });
}
