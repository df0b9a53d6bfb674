/** What other layers may use from search (STYLE §2: this file only re-exports). */
export { runIndex, updateIndexAfterWrite, type IndexRun } from './update.js';
export { runSearch } from './search.js';
export { type SearchResponse, type SearchResult, type SearchRequest } from './outcome.js';
export { snippet } from './snippet.js';
export { wholeTextReader } from './whole-text.js';
export { queryTerms, tokenize } from './tokenize.js';
export type { Tier } from './types.js';
