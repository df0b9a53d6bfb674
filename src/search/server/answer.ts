/**
 * One query answered by the resident server: the tier loop of a cold `mem search` (query/tier-loop.ts)
 * over tiers taken from the server's cache instead of a fresh scan. Invariant: the outcome is the one a
 * cold `mem search` computes at the same moment, by construction (the same loop; the cache opens a tier
 * as view.ts would now); whatever the cold path answers differently (a missing or damaged index, a
 * segment that cannot be read twice, an empty query) is not answered here: `Cold` is thrown and the
 * client answers cold.
 */
import type { EmbeddingConfig } from '../../config/schema.js';
import { searchTiers } from '../query/tier-loop.js';
import type { SearchOutcome } from '../query/outcome.js';
import type { Tier } from '../text/types.js';
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
  const vectors =
    ctx.embedding && !req.lexicalOnly
      ? (await import('../embed/embed-query.js')).vectorRanker(ctx.workspace, ctx.embedding)
      : undefined;
  const open = async (tier: Tier) => {
    const opened = await ctx.tiers.open(tier);
    if (!opened) throw new Cold(`no usable ${tier} index`);
    return opened;
  };
  const reopened = new Set<Tier>();
  return searchTiers(
    { ...req, workspace: ctx.workspace },
    {
      open,
      // A segment file removed or rewritten by a rebuild under us: read the tier anew, once.
      reopen: (failed, err) => {
        ctx.tiers.forget(failed.tier);
        if (reopened.has(failed.tier)) throw new Cold(`${failed.tier} index unreadable (${(err as Error).message})`);
        reopened.add(failed.tier);
        return open(failed.tier);
      },
      done: () => {}, // the cache owns the tiers
    },
    vectors,
    wholeTextReader(ctx.workspace),
  );
}
