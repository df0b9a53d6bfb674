/**
 * A Markdown tier (warm or cold) as rank-tier.ts ranks it: records as a query shows them (cited.ts),
 * the query's filters, RM3 feedback, the embeddings' ranking, windows of one group merged into one
 * result, then the boosts (recency, status, the month a query names), a question about the past
 * lifting the entries its answers superseded, and the tier's shortlist. Reads, never writes.
 */
import { citedEntries, entryDoc } from './cited.js';
import { liftPredecessors } from './past-lift.js';
import type { Accept } from './engine.js';
import { hasFilters, makeFilter } from './filter.js';
import { recencyBoost, statusBoost, type Ranked } from './rank.js';
import { monthBoost, queryTime } from './query-time.js';
import { segmentOf } from '../index/doc-runs.js';
import { prepareFold } from '../text/fold.js';
import type { DocRecord } from '../text/types.js';
import type { OpenedTier } from '../index/view.js';
import { shortlist } from './assemble.js';
import { rankTier, type RankAt } from './rank-tier.js';
import type { VectorRanker, SearchResult, SearchRequest } from './outcome.js';

/** A filter read once per doc, however many of the query's terms the doc holds. */
function acceptOnce(accept: Accept): Accept {
  const seen = new Map<number, boolean>();
  return (doc, seg) => {
    let ok = seen.get(doc);
    if (ok === undefined) seen.set(doc, (ok = accept(doc, seg)));
    return ok;
  };
}

/** What ranking one tier needs of a request (the resident server has no SearchRequest). */
export type TierQuery = Pick<SearchRequest, 'query' | 'k' | 'filters' | 'today'>;

/** One tier's results: lexical (and vector) ranks fused, filtered, windows merged, boosted, its shortlist. */
export async function searchTier(
  req: TierQuery,
  vectors: VectorRanker | undefined,
  opened: OpenedTier,
  terms: string[],
  notices: string[],
): Promise<SearchResult[]> {
  const { view } = opened;
  const filtered = hasFilters(req.filters);
  const limit = filtered ? 2000 : Math.max(100, req.k * 10);
  const keep = makeFilter(req.filters);
  const asShown = citedEntries(view);
  const groups = new Map<string, SearchResult>();
  const supersedes = new Map<SearchResult, string | null>();
  const when = queryTime(req.query);
  const result = (r: DocRecord, doc: number, score: number, l?: RankAt, v?: RankAt): SearchResult => {
    // A question about the past wants what was true then: no recency, no demotion (query-time.ts).
    const recency = (when.past ? 1 : recencyBoost(r.date, req.today)) * monthBoost(r.date, when);
    const status = when.past && r.status === 'superseded' ? 1 : statusBoost(r.status);
    const out: SearchResult = {
      path: r.path,
      startLine: r.startLine,
      endLine: r.endLine,
      heading: r.heading,
      snippet: '',
      text: r.text,
      score: score * recency * status,
      scores: {
        lexical: l?.score ?? null,
        lexicalRank: l?.rank ?? null,
        vector: v?.score ?? null,
        vectorRank: v?.rank ?? null,
        fused: score,
        recency,
        status,
      },
      id: r.entryId,
      kind: r.kind,
      status: r.status,
      date: r.date,
      source: r.source,
      tier: r.tier,
      supersededBy: null,
    };
    supersedes.set(out, r.supersedes);
    return out;
  };
  const {
    results: listed,
    lexical,
    vector,
  } = await rankTier<SearchResult>(
    {
      view,
      terms,
      depth: limit,
      accept: filtered ? acceptOnce((doc, seg) => keep(asShown(seg.record(doc)))) : undefined,
      feedback: true,
      vectors: vectors && (() => rankByVector(vectors, opened, req.query, limit, notices)),
      wanted: req.k * 3,
      // The ids results are shown by are folded to find their successors (cited.ts): one small Chinese
      // converter for all of them (fold.ts), not one for the first id with Han characters and the full
      // one (28 ms) for the next.
      prepare: (docs) => prepareFold(docs.flatMap((doc) => idsOf(segmentOf(view.segments, doc)?.record(doc)))),
      result: (doc, score, l, v) => {
        const seg = segmentOf(view.segments, doc);
        if (!seg) return undefined;
        const r: DocRecord = asShown(seg.record(doc));
        if (!keep(r)) return undefined;
        const key = `${r.tier}:${r.group}`;
        const seen = groups.get(key);
        if (seen) {
          seen.startLine = Math.min(seen.startLine, r.startLine);
          seen.endLine = Math.max(seen.endLine, r.endLine);
          return undefined;
        }
        const out = result(r, doc, score, l, v);
        groups.set(key, out);
        return out;
      },
    },
    req.k,
  );
  let ranked = listed.sort((a, b) => b.score - a.score);
  if (when.past) {
    ranked = liftPredecessors(
      ranked,
      req.k,
      (x) => supersedes.get(x) ?? null,
      (id) => {
        const found = entryDoc(view, id);
        const r = found && asShown(found.record);
        return r && keep(r) && !groups.has(`${r.tier}:${r.group}`)
          ? result(r, found.doc, 0, lexical.get(found.doc), vector.get(found.doc))
          : null;
      },
    );
  }
  return ranked.slice(0, shortlist(req.k));
}

/** The entry ids a record's shown form may look up: its own and the one it cites. */
const idsOf = (r: DocRecord | undefined): string[] => [r?.entryId, r?.cites].filter((id): id is string => !!id);

/** The embeddings' ranking of the tier; a failure leaves the query lexical, with a notice. */
async function rankByVector(
  vectors: VectorRanker,
  opened: OpenedTier,
  query: string,
  limit: number,
  notices: string[],
): Promise<Ranked[] | null> {
  try {
    return await vectors(opened, query, limit);
  } catch (err) {
    notices.push(`embeddings unavailable (${(err as Error).message}); lexical results only`);
    return null;
  }
}
