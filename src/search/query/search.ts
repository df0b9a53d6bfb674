/**
 * `mem search` as a function, run cold: each tier scanned and opened by this process (view.ts), then
 * the one tier loop (tier-loop.ts), which the resident server runs too over its cached tiers. A tier
 * whose index fails while read is opened again from its files in memory. It reads the index and the
 * Markdown files and writes nothing, ever.
 */
import { MemError } from '../../core/errors.js';
import { scanWorkspace, type ScannedFile } from '../index/scan.js';
import type { Tier } from '../text/types.js';
import { openTier, type OpenedTier } from '../index/view.js';
import { searchTiers, type TierOpener } from './tier-loop.js';
import { wholeTextReader } from './whole-text.js';
import type { SearchRequest, SearchOutcome } from './outcome.js';

export { successorsFirst } from './assemble.js';

export async function runSearch(req: SearchRequest): Promise<SearchOutcome> {
  if (!req.query.trim())
    throw new MemError('USAGE', 'the query is empty; give some words to search for, e.g. mem search "why postgres"');
  const files = new Map<Tier, ScannedFile[]>();
  const opener: TierOpener = {
    open: (tier) => {
      const tierFiles = scanWorkspace(req.workspace, req.extraPaths, tier);
      files.set(tier, tierFiles);
      return openTier(req.workspace, tier, tierFiles, req.search);
    },
    // A damaged segment file (truncated, removed by a concurrent rebuild): answer from memory.
    reopen: (failed: OpenedTier, err: unknown) => {
      if (failed.problem) throw err;
      failed.close();
      return openTier(req.workspace, failed.tier, files.get(failed.tier) ?? [], req.search, (err as Error).message);
    },
    done: (opened) => opened.forEach((o) => o.close()),
  };
  return searchTiers(req, opener, req.vectors, req.wholeText ?? wholeTextReader(req.workspace));
}
