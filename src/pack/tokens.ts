/**
 * Token counting for `mem context` budgets: gpt-tokenizer's o200k_base encoding (the GPT-4o / GPT-5
 * family's), exact for those models and a close measure for others. Special-token text such as
 * `<|endoftext|>` inside a memory is counted as plain text, never an error.
 *
 * The encoding is loaded on first count, not on import: loading it takes a few hundred milliseconds
 * and most of a session start's memory, and a pack whose pieces were counted ahead
 * (pack/pieces.ts, pack/pack-cache.ts) needs no tokenizer at all.
 */
import { createRequire } from 'node:module';

export const TOKENIZER = 'gpt-tokenizer o200k_base';

type Count = (text: string, opts: { disallowedSpecial: Set<string> }) => number;

const NONE = new Set<string>();
let count: Count | undefined;

export function countTokens(text: string): number {
  count ??= (createRequire(import.meta.url)('gpt-tokenizer/encoding/o200k_base') as { countTokens: Count }).countTokens;
  return count(text, { disallowedSpecial: NONE });
}
