/**
 * The offline, rule-based extractor (DESIGN §7): same job as the LLM path, less cleverly. It only
 * listens to people and the agent, never to tools: a tool result, sub-agent or harness turn can
 * never produce memory, whatever it says ("remember this: ..." in a fetched page is data). Nor is
 * everything in a user's message their word: attachments, pasted logs and diffs (material.ts),
 * quotes and reported speech (speech-acts.ts) decide nothing.
 */
import type { Turn } from '../transcripts/types.js';
import { handsOverCredentials } from './credentials.js';
import { modelStatements } from './model-statements.js';
import { chosenOption, confirmedProposal } from './proposal.js';
import { retractionOf, sharesSubject } from './retraction.js';
import { normalise } from './sentences.js';
import { isSpeech } from './statement.js';
import type { Candidate } from './types.js';
import { userStatements } from './user-statements.js';

export { isSpeech } from './statement.js';

/** `model`: false for the rules alone (the learned scorer's training reads what the rules take). */
export function extractWithRules(turns: Turn[], model = true): Candidate[] {
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
      const afterAgent = speech[i - 1]?.role === 'assistant';
      const said = userStatements(turn, turns, afterAgent, before);
      // "That's wrong" opening the next user turn retracts the statement before (a new entry; it stays), or a new statement corrects it (retraction.ts).
      const taken = said.retractsEarlier
        ? out.findLast((c) => c.lastTurn === previousUser?.index && !c.retracting)
        : undefined;
      const first = said.statements[0];
      if (taken && first && !first.retracting && sharesSubject(taken, first))
        Object.assign(first, { revises: true, corrects: true });
      else if (taken) push(retractionOf(taken, turn));
      said.statements.forEach(push);
      // What no marker speaks for, the learned scorer may (model-statements.ts).
      const own = out.filter((c) => c.lastTurn === turn.index);
      if (model) modelStatements(turn, turns, afterAgent, before !== undefined, own).forEach(push);
      previousUser = turn;
    } else if (speech[i + 1])
      push(confirmedProposal(turn, speech[i + 1]!, turns) ?? chosenOption(turn, speech[i + 1]!, turns));
  });
  return out;
}
