/**
 * A wrap-up never tells again what `mem forget --hard` removed: the turns in which the rule
 * extractor hears a forgotten statement (by its marks, see jobs/forgotten.ts) are taken out of the
 * day's sessions before the rule-based sections or an LLM see them. Pure.
 */
import { extractWithRules } from '../../extract/rules.js';
import { candidateMarks, isForgotten, type ForgottenMarks } from '../forgotten.js';
import type { DaySession } from './sessions.js';

export function withoutForgotten(sessions: DaySession[], day: string, forgotten: ForgottenMarks): DaySession[] {
  if (!forgotten.size) return sessions;
  return sessions.flatMap((s) => {
    const gone = extractWithRules(s.turns).filter((c) => isForgotten(forgotten, candidateMarks({ ...c, day })));
    const turns = s.turns.filter((t) => !gone.some((c) => t.index >= c.firstTurn && t.index <= c.lastTurn));
    return turns.length ? [{ ...s, turns }] : [];
  });
}
