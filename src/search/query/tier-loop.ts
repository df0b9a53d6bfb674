/**
 * The tier loop of `mem search`: warm, then cold when warm did not fill the list (or --deep ranks
 * both), each ranked by markdown-tier.ts, merged, superseded entries given their successors, the
 * answer finished (assemble.ts). A cold run (search.ts runSearch) and the resident server
 * (server/answer.ts) both call it and differ only by their TierOpener: a fresh process scans and opens
 * each tier, the server takes it from its cache. So a served answer is the cold one by construction.
 *
 * A tier whose segment files fail while it is read (truncated or replaced by a rebuild under the
 * query) goes back to its opener once, which opens it anew (cold: from its files in memory, with a
 * notice) or gives up (the server: the client answers cold).
 */
import path from 'node:path';
import { successor } from './cited.js';
import { finishSearch, mergeTier, startSearch } from './assemble.js';
import { searchTier, type TierQuery } from './markdown-tier.js';
import { DiskSegment } from '../index/segment.js';
import { deadSet, INDEX_DIR, loadTierHead } from '../index/tier-file.js';
import type { OpenedTier } from '../index/view.js';
import { TIERS, type Tier } from '../text/types.js';
import type { SearchOutcome, SearchRequest, SearchResult, VectorRanker, WholeTextReader } from './outcome.js';

/** Where the loop gets its tiers. */
export interface TierOpener {
  open(tier: Tier): Promise<OpenedTier>;
  /** `failed` broke while read (`err`): the tier opened anew, or a throw (always for a tier already reopened). */
  reopen(failed: OpenedTier, err: unknown): Promise<OpenedTier>;
  /** The query is done with the tiers it opened. */
  done(opened: OpenedTier[]): void;
}

export type LoopQuery = TierQuery & Pick<SearchRequest, 'deep' | 'workspace'>;

export async function searchTiers(
  req: LoopQuery,
  opener: TierOpener,
  vectors: VectorRanker | undefined,
  wholeText: WholeTextReader,
): Promise<SearchOutcome> {
  const { terms, response, notices } = startSearch(req.query);
  if (!terms.length) return { response, notices };
  const results: SearchResult[] = [];
  const opens: OpenedTier[] = [];
  try {
    for (const tier of TIERS) {
      if (tier === 'cold' && !req.deep && results.length >= req.k) break;
      let opened = await opener.open(tier);
      let found: SearchResult[];
      try {
        found = await searchTier(req, vectors, opened, terms, notices);
      } catch (err) {
        opened = await opener.reopen(opened, err);
        found = await searchTier(req, vectors, opened, terms, notices);
      }
      opens.push(opened);
      if (opened.problem)
        notices.push(
          opened.problemKind === 'missing'
            ? `no ${tier} index yet: searched the files in memory (slower); run "mem index"`
            : unusable(tier, opened.problem),
        );
      mergeTier(req, opened, found, response, results, notices);
    }
    for (const r of results)
      if (r.status === 'superseded' && r.id)
        r.supersededBy = await successorAnywhere(req.workspace, opener, opens, notices, r.id);
  } finally {
    opener.done(opens);
  }
  return finishSearch(req, response, results, notices, terms, wholeText);
}

export function unusable(tier: Tier, problem: string): string {
  return `${tier} index unusable (${problem}): searched the files in memory (slower); run "mem index" to rebuild it`;
}

/**
 * The entry that names `id` in its `supersedes` field: the tiers searched first, then the other's
 * index. A searched tier whose segment files fail now (truncated or replaced after the query read
 * them) is reopened, as a failing query is, so the answer and its "superseded by" hint survive;
 * another tier's damaged index only loses the hint.
 */
async function successorAnywhere(
  workspace: string,
  opener: TierOpener,
  opens: OpenedTier[],
  notices: string[],
  id: string,
): Promise<string | null> {
  for (let i = 0; i < opens.length; i++) {
    let o = opens[i]!;
    let here: string | null;
    try {
      here = successor(o.view.segments, o.view.isDead, id);
    } catch (err) {
      o = opens[i] = await opener.reopen(o, err);
      if (o.problem) notices.push(unusable(o.tier, o.problem));
      here = successor(o.view.segments, o.view.isDead, id);
    }
    if (here) return here;
  }
  for (const tier of TIERS) {
    if (opens.some((o) => o.tier === tier)) continue;
    const found = successorInIndex(workspace, tier, id);
    if (found) return found;
  }
  return null;
}

/** "Superseded by" in a tier the query did not open: its persisted segments only, a damaged index losing only the hint. */
function successorInIndex(workspace: string, tier: Tier, id: string): string | null {
  const load = loadTierHead(workspace, tier);
  if (!('head' in load)) return null;
  const segs = load.head.segments.map((x) =>
    DiskSegment.open(path.join(workspace, INDEX_DIR), x.name, x.first, x.count),
  );
  try {
    return successor(segs, deadSet(load.head.dead), id);
  } catch {
    return null;
  } finally {
    segs.forEach((x) => x.close());
  }
}
