/** What other layers may use from search (STYLE §2: this file only re-exports). */
export { runIndex, updateIndexAfterWrite, type IndexRun } from './run/update.js';
export { runSearch } from './query/search.js';
export { type SearchResponse, type SearchResult, type SearchRequest } from './query/outcome.js';
export { snippet } from './text/snippet.js';
export { wholeTextReader } from './query/whole-text.js';
export { queryTerms, tokenize } from './text/tokenize.js';
export type { Tier } from './text/types.js';
