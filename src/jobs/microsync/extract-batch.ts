/**
 * One batch of one file's turns → candidates, behind the trust boundary: sessions that must produce
 * nothing are skipped, the rest is redacted before the rule-based or LLM extractor sees it, and what
 * comes out is cleaned again (control characters, secrets) whichever extractor proposed it. Turns the
 * LLM endpoint refuses to read are read by the rule-based extractor, the path DESIGN §7 gives for
 * working without an LLM, so one refused request neither fails every run nor loses its turns.
 */
import type { LlmConfig } from '../../config/schema.js';
import { cleanCandidate } from '../../extract/clean.js';
import { mayCarry } from '../../extract/credentials.js';
import { extractWithLlm } from '../../extract/llm.js';
import type { LlmBudget } from '../../extract/llm-budget.js';
import { extractWithRules } from '../../extract/rules.js';
import { prepareTurns, storedSessionPath } from '../../extract/trust.js';
import type { Candidate } from '../../extract/types.js';
import type { Turn } from '../../transcripts/types.js';

export interface ExtractorSetup {
  llm?: { cfg: LlmConfig; budget: LlmBudget; dryRun: boolean };
  warn: (msg: string) => void;
}

export interface BatchOutcome {
  candidates: Candidate[];
  redacted: number;
  /** Last turn fully extracted when the LLM budget ran out; null when the whole batch was. */
  processedThrough: number | null;
  llm: { calls: number; tokens: number; estimatedCalls: number; estimatedTokens: number; stoppedByBudget: boolean };
  /** Turns the LLM endpoint refused ("turns 3-8 of ~/x.jsonl"), read by the rules instead, and its answer. */
  refused: Array<{ where: string; problem: string }>;
}

function bySession(turns: Turn[]): Turn[][] {
  const groups = new Map<string, Turn[]>();
  for (const t of turns) {
    const g = groups.get(t.sessionId);
    if (g) g.push(t);
    else groups.set(t.sessionId, [t]);
  }
  return [...groups.values()];
}

/**
 * A statement holding U+FFFD came from bytes that are not UTF-8 (a transcript in GBK or Latin-1):
 * written down it would be garbled for good, so it is left out with a warning instead. The rest is
 * freed of control characters (a NUL would make the index take the whole daily file for binary).
 */
function readable(candidates: Candidate[], warn: (msg: string) => void): Candidate[] {
  return candidates
    .map((c) => cleanCandidate(c).candidate)
    .filter((c) => {
      // Whichever extractor proposed it (a model too), a rule or decision holding a credential's value is none (credentials.ts).
      if (!mayCarry(c.kind, `${c.title} ${c.conclusion}`)) return false;
      const garbled = [c.title, c.conclusion, c.why, c.finding, c.impact].some((v) => v?.includes('\uFFFD'));
      if (garbled)
        warn(
          `${c.sessionPath}: turns ${c.firstTurn}-${c.lastTurn} hold bytes that are not UTF-8 (a legacy encoding such as GBK?); the statement there was not recorded`,
        );
      return !garbled;
    });
}

/**
 * The rule-based extractor over `turns`; `context` only helps to understand them. Context is not only
 * the turns just before them: a turn read amid the batch but dated past the skew or before the window
 * is context too, so all are read in file order and only a statement ending in one of `turns` is kept.
 */
function byRules(turns: Turn[], context: Turn[], warn: (msg: string) => void): Candidate[] {
  const own = new Set(turns.map((t) => t.index));
  const inOrder = [...context, ...turns].sort((a, b) => a.index - b.index);
  return readable(
    extractWithRules(inOrder).filter((c) => own.has(c.lastTurn)),
    warn,
  );
}

/** One warning for every request the LLM endpoint refused in a run, naming the turns. */
export function refusedWarning(refused: BatchOutcome['refused']): string | undefined {
  if (!refused.length) return undefined;
  const shown = refused
    .slice(0, 5)
    .map((r) => r.where)
    .join('; ');
  const more = refused.length > 5 ? `; and ${refused.length - 5} more` : '';
  const n = refused.length === 1 ? 'a request' : `${refused.length} requests`;
  return `the LLM endpoint refused ${n}, so the rule-based extractor read those turns instead: ${shown}${more} (${refused[0]!.problem})`;
}

export async function extractBatch(turns: Turn[], context: Turn[], setup: ExtractorSetup): Promise<BatchOutcome> {
  const out: BatchOutcome = {
    candidates: [],
    redacted: 0,
    processedThrough: null,
    llm: { calls: 0, tokens: 0, estimatedCalls: 0, estimatedTokens: 0, stoppedByBudget: false },
    refused: [],
  };
  for (const group of bySession(turns)) {
    const prepared = prepareTurns(group);
    out.redacted += prepared.redacted;
    // The turns just before this batch (of the same session): a confirmation needs what it confirms.
    const ctx = prepareTurns(context.filter((t) => t.sessionId === group[0]!.sessionId)).turns;
    if (!setup.llm) {
      out.candidates.push(...byRules(prepared.turns, ctx, setup.warn));
      continue;
    }
    const { cfg, budget, dryRun } = setup.llm;
    const r = await extractWithLlm(prepared.turns, cfg, { budget, dryRun, warn: setup.warn, context: ctx });
    out.candidates.push(...readable(r.candidates, setup.warn));
    // Turns the model could not answer for are not lost: the rules read them, as refused ones.
    for (const b of r.unanswered) out.candidates.push(...byRules(b.turns, b.context, setup.warn));
    for (const b of r.refused) {
      out.candidates.push(...byRules(b.turns, b.context, setup.warn));
      out.refused.push({
        where: `turns ${b.turns[0]!.index}-${b.turns[b.turns.length - 1]!.index} of ${storedSessionPath(b.turns[0]!.sessionPath)}`,
        problem: b.problem,
      });
    }
    out.llm.calls += r.calls;
    out.llm.tokens += r.tokens;
    out.llm.estimatedCalls += r.estimated?.calls ?? 0;
    out.llm.estimatedTokens += r.estimated?.tokens ?? 0;
    if (r.stoppedByBudget) {
      out.llm.stoppedByBudget = true;
      out.processedThrough = r.processedThroughTurn ?? group[0]!.index - 1;
      break;
    }
  }
  return out;
}
