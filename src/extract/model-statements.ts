/**
 * The learned scorer beside the rules (docs/extraction-model.md): in a user turn, a sentence that no
 * marker speaks for and no detector holds open (model-pieces.ts), and that no rule statement of the
 * turn already took, lands when the model gives it a kind above its threshold. It lands through the
 * rules' own entry builder (statement.ts `build`), so its title, scope, key, task state and revision
 * flag come out as a rule statement's would, and the planner links and dedupes it the same way.
 */
import type { Turn } from '../transcripts/types.js';
import { modelPieces } from './model-pieces.js';
import { currentModel, predictKind } from './model-score.js';
import { normalise } from './sentences.js';
import { build } from './statement.js';
import type { Candidate } from './types.js';

/** A sentence this short ("ok", "thanks!", "好的") is no statement, whatever its words. */
const MIN_CHARS = 8;
/** The confidence written for a model statement: below every marker's, as it is the least explicit. */
const CONFIDENCE_MAX = 0.65;

/** Whether the rule statement already holds the sentence (or the sentence holds it). */
const overlaps = (c: Candidate, sentence: string) => {
  const a = normalise(c.conclusion);
  const b = normalise(sentence);
  return a.includes(b) || b.includes(a);
};

export function modelStatements(
  turn: Turn,
  turns: Turn[],
  afterAgent: boolean,
  answersStatement: boolean,
  taken: Candidate[],
): Candidate[] {
  const model = currentModel();
  if (!model) return [];
  const out: Candidate[] = [];
  for (const piece of modelPieces(turn, afterAgent, answersStatement)) {
    if (piece.marked || piece.gated || Array.from(normalise(piece.text)).length < MIN_CHARS) continue;
    if (taken.some((c) => overlaps(c, piece.text))) continue;
    const kind = predictKind(model, piece.features);
    if (!kind) continue;
    const c = build(
      {
        kind: kind.kind,
        text: piece.text,
        confidence: Math.min(CONFIDENCE_MAX, Math.round(kind.p * 100) / 100),
        revises: piece.ctx.corrected,
        corrects: piece.ctx.corrected,
      },
      turns,
      turn,
      turn,
      'user',
    );
    if (c) out.push(c);
  }
  return out;
}
