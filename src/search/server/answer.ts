/**
 * One query answered by the resident server: runSearch's tier loop (src/search/query/search.ts), with its
 * searchTier and successor, over tiers opened from the server's cache instead of a fresh scan. Invariant: the outcome is the one
 * a cold `mem search` computes at the same moment (same tiers, fusion, filters, merging, boosts,
 * notices, result shape); whatever the cold path answers differently (a missing or damaged index, a
 * segment that cannot be read twice, an empty query) is not answered here: `Cold` is thrown and the
 * client answers cold. Kept in step with search.ts by test/search-server.test.ts, which compares
 * both paths' JSON.
 */
import type { EmbeddingConfig } from '../../config/schema.js';
import { finishSearch, mergeTier, startSearch } from '../query/assemble.js';
import { searchTier, successor } from '../query/search.js';
import { type SearchOutcome, type SearchResult } from '../query/outcome.js';
import { TIERS, type Tier } from '../text/types.js';
import type { OpenedTier } from '../index/view.js';
import { wholeTextReader } from '../query/whole-text.js';
import type { SearchQuery } from './protocol.js';
import type { TierCache } from './tiers.js';

/** "Let the client answer this one cold", with the reason (for logs and tests). */
export class Cold extends Error {}

export interface AnswerContext {
  workspace: string;
  tiers: TierCache;
  embedding: EmbeddingConfig | undefined;
}

export async function answer(ctx: AnswerContext, req: SearchQuery): Promise<SearchOutcome> {
  if (!req.query.trim()) throw new Cold('empty query');
  const { terms, response, notices } = startSearch(req.query);
  if (!terms.length) return { response, notices };
  const vectors =
    ctx.embedding && !req.lexicalOnly
      ? (await import('../embed/embed-query.js')).vectorRanker(ctx.workspace, ctx.embedding)
      : undefined;
  const results: SearchResult[] = [];
  const opens: OpenedTier[] = [];
  for (const tier of TIERS) {
    if (tier === 'cold' && !req.deep && results.length >= req.k) break;
    let opened = await ctx.tiers.open(tier);
    if (!opened) throw new Cold(`no usable ${tier} index`);
    let found: SearchResult[];
    try {
      found = await searchTier(req, vectors, opened, terms, notices);
    } catch {
      // A segment file removed or rewritten by a rebuild under us: read the tier anew, once.
      ctx.tiers.forget(tier);
      opened = await ctx.tiers.open(tier);
      if (!opened) throw new Cold(`no usable ${tier} index`);
      try {
        found = await searchTier(req, vectors, opened, terms, notices);
      } catch (err) {
        ctx.tiers.forget(tier);
        throw new Cold(`${tier} index unreadable (${(err as Error).message})`);
      }
    }
    opens.push(opened);
    mergeTier(req, opened, found, response, results, notices);
  }
  for (const r of results)
    if (r.status === 'superseded' && r.id) r.supersededBy = await successorAnywhere(ctx, opens, r.id);
  return finishSearch(req, response, results, notices, terms, wholeTextReader(ctx.workspace));
}

/** The entry that names `id` in its `supersedes` field: the tiers searched first, then the other's index. */
async function successorAnywhere(ctx: AnswerContext, opens: OpenedTier[], id: string): Promise<string | null> {
  for (const o of opens) {
    const here = successor(o.view.segments, o.view.isDead, id);
    if (here) return here;
  }
  for (const tier of TIERS as readonly Tier[]) {
    if (opens.some((o) => o.tier === tier)) continue;
    // The cold path reads only the persisted segments here (no overlay): so does this.
    const { successorInIndex } = await import('./successor.js');
    const found = successorInIndex(ctx.workspace, tier, id, successor);
    if (found) return found;
  }
  return null;
}
