/**
 * Token counting for `mem context` budgets: gpt-tokenizer's o200k_base encoding (the GPT-4o / GPT-5
 * family's), exact for those models and a close measure for others. Special-token text such as
 * `<|endoftext|>` inside a memory is counted as plain text, never an error.
 */
import { countTokens as count } from 'gpt-tokenizer/encoding/o200k_base';

export const TOKENIZER = 'gpt-tokenizer o200k_base';

const NONE = new Set<string>();

export function countTokens(text: string): number {
  return count(text, { disallowedSpecial: NONE });
}
