/**
 * The per-run LLM budget (`llm.maxCallsPerRun`, `llm.maxTokensPerRun`, DESIGN §7) and the token
 * estimate it is checked with. One budget per run of a job, shared by every call the run makes
 * (wrapup's and compound's catch-up microsync and their own calls), checked before each call, so a
 * run never starts a call it cannot pay for, and spent from what the endpoint reports.
 */
import type { LlmConfig } from '../config/schema.js';

/** Completion tokens reserved per call when checking the budget: a generous typical answer. */
export const OUTPUT_TOKENS_RESERVE = 1_000;

/** What is left to spend in this run; whoever calls the endpoint decrements it as it spends. */
export interface LlmBudget {
  calls: number;
  tokens: number;
}

export function runBudget(cfg: LlmConfig): LlmBudget {
  return { calls: cfg.maxCallsPerRun, tokens: cfg.maxTokensPerRun };
}

/** Calls and tokens a run spent of its budget. */
export function spentOf(cfg: LlmConfig, budget: LlmBudget): LlmBudget {
  return { calls: cfg.maxCallsPerRun - budget.calls, tokens: cfg.maxTokensPerRun - budget.tokens };
}

/** Whether the budget can pay for one more call of `estimate` tokens. */
export function affordable(budget: LlmBudget, estimate: number): boolean {
  return budget.calls >= 1 && budget.tokens >= estimate;
}

const CJK = /[\u1100-\u11ff\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/gu;

/**
 * Rough token count for budgeting, never for billing: about 4 characters a token for Latin text,
 * and one token per CJK character (tokenizers rarely merge them, so chars/4 would under-count
 * Chinese by 3-4x and let a run overspend its budget). Plus a few tokens of framing per message.
 */
export function estimateTokens(text: string): number {
  const cjk = text.match(CJK)?.length ?? 0;
  return cjk + Math.ceil((text.length - cjk) / 4);
}

export function estimateMessagesTokens(messages: readonly { content: string }[]): number {
  return messages.reduce((sum, m) => sum + 4 + estimateTokens(m.content), 0);
}
