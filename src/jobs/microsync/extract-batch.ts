/**
 * One batch of one file's turns → candidates, behind the trust boundary: sessions that must produce
 * nothing are skipped, the rest is redacted before the rule-based or LLM extractor sees it, and what
 * comes out is cleaned again (control characters, secrets) whichever extractor proposed it.
 */
import type { LlmConfig } from '../../config/schema.js';
import { cleanCandidate } from '../../extract/clean.js';
import { extractWithLlm, type LlmBudget } from '../../extract/llm.js';
import { extractWithRules } from '../../extract/rules.js';
import { prepareTurns } from '../../extract/trust.js';
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
  return candidates.map((c) => cleanCandidate(c).candidate).filter((c) => {
    const garbled = [c.title, c.conclusion, c.why, c.finding, c.impact].some((v) => v?.includes('\uFFFD'));
    if (garbled) warn(`${c.sessionPath}: turns ${c.firstTurn}-${c.lastTurn} hold bytes that are not UTF-8 (a legacy encoding such as GBK?); the statement there was not recorded`);
    return !garbled;
  });
}

export async function extractBatch(turns: Turn[], context: Turn[], setup: ExtractorSetup): Promise<BatchOutcome> {
  const out: BatchOutcome = { candidates: [], redacted: 0, processedThrough: null, llm: { calls: 0, tokens: 0, estimatedCalls: 0, estimatedTokens: 0, stoppedByBudget: false } };
  for (const group of bySession(turns)) {
    const prepared = prepareTurns(group);
    out.redacted += prepared.redacted;
    if (!setup.llm) {
      const ctx = prepareTurns(context.filter((t) => t.sessionId === group[0]!.sessionId)).turns;
      const firstIndex = group[0]!.index;
      out.candidates.push(...readable(extractWithRules([...ctx, ...prepared.turns]).filter((c) => c.lastTurn >= firstIndex), setup.warn));
      continue;
    }
    const { cfg, budget, dryRun } = setup.llm;
    const r = await extractWithLlm(prepared.turns, cfg, { budget, dryRun, warn: setup.warn });
    out.candidates.push(...readable(r.candidates, setup.warn));
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
