/**
 * build-docs.ts with remark loaded first, for callers that chunk any file synchronously and cannot
 * handle RemarkNotLoaded (the search-time overlay, view.ts, which imports this module lazily).
 * `mem index` imports build-docs.ts itself and loads remark only for a file that needs it
 * (MEMORY.md, setext headings, HTML blocks), so an incremental update usually never loads it.
 */
import { loadRemark } from './chunk.js';

export * from './build-docs.js';

await loadRemark();
