/**
 * Hand-built turns for the offline extractor's tests: one session (`s1`), a turn a minute from
 * 10:00, in the shape the transcript readers give, and the extractor run on them through its trust
 * boundary (prepareTurns), as microsync runs it.
 */
import { extractWithRules } from '../../src/extract/rules.js';
import { prepareTurns } from '../../src/extract/trust.js';
import type { Candidate } from '../../src/extract/types.js';
import type { Role, Turn } from '../../src/transcripts/index.js';

/** A turn: who says what, and any other field of the turn. */
export type Spec = [Role, string, Partial<Turn>?];

export function convo(...specs: Spec[]): Turn[] {
  return specs.map(([role, text, extra], i) => ({
    sessionId: 's1',
    sessionPath: '/tmp/s1.jsonl',
    index: i + 1,
    role,
    text,
    timestamp: `2026-11-21T10:0${i % 10}:00Z`,
    endOffset: (i + 1) * 100,
    ...extra,
  }));
}

/** The candidates the rule path takes from these turns. */
export const extract = (...specs: Spec[]): Candidate[] => extractWithRules(prepareTurns(convo(...specs)).turns);
