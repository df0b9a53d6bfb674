/**
 * `mem search` as a function: tiers, candidates, fusion, filters, merging of windows, boosts and the
 * stable result shape. It reads the index and the Markdown files and writes nothing, ever.
 */
import { MemError } from '../../core/errors.js';
import { citedEntries, entryDoc, successor } from './cited.js';
import { liftPredecessors } from './past-lift.js';
import { lexicalSearch, type Accept } from './engine.js';
import { hasFilters, makeFilter } from './filter.js';
import { recencyBoost, statusBoost, type Ranked } from './rank.js';
import { fuse } from './fusion.js';
import { addFeedback, FEEDBACK_DOCS, feedbackSearch, feedbackTerms, liveChunks } from './feedback.js';
import { monthBoost, queryTime } from './query-time.js';
import { scanWorkspace, type ScannedFile } from '../index/scan.js';
import { DiskSegment } from '../index/segment.js';
import { segmentOf } from '../index/doc-runs.js';
import { deadSet, INDEX_DIR, loadTierHead } from '../index/tier-file.js';
import path from 'node:path';
import { TIERS, type DocRecord, type Tier } from '../text/types.js';
import { openTier, type OpenedTier } from '../index/view.js';
import { finishSearch, mergeTier, shortlist, startSearch } from './assemble.js';
import { wholeTextReader } from './whole-text.js';
import type { VectorRanker, SearchResult, SearchRequest, SearchOutcome } from './outcome.js';

export { successorsFirst } from './assemble.js';
export { successor } from './cited.js';

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
  const accept = filtered ? acceptOnce((doc, seg) => keep(asShown(seg.record(doc)))) : undefined;
  const first = lexicalSearch(view, terms, limit, { accept });
  const live = liveChunks(view);
  const more = feedbackTerms(
    first.slice(0, FEEDBACK_DOCS).map((h) => ({ text: h.segment.record(h.doc).text, score: h.score })),
    terms,
    live,
    view.docCount,
  );
  const found = feedbackSearch(view, more, live, accept);
  const lex = more.length ? addFeedback(first, found) : first;
  let vec: (Ranked & { cosine: number })[] | null = null;
  if (vectors) {
    try {
      vec = await vectors(opened, req.query, limit);
    } catch (err) {
      notices.push(`embeddings unavailable (${(err as Error).message}); lexical results only`);
    }
  }
  const lexRank = new Map(lex.map((h, i) => [h.doc, { rank: i + 1, score: h.score }]));
  const vecRank = new Map((vec ?? []).map((h, i) => [h.doc, { rank: i + 1, score: h.cosine }]));
  const fused = fuse(lex, vec ?? [], req.k, view.docCount).scores;
  const order = [...fused.entries()].sort((a, b) => b[1] - a[1]);
  const groups = new Map<string, SearchResult>();
  const supersedes = new Map<SearchResult, string | null>();
  const when = queryTime(req.query);
  const result = (r: DocRecord, doc: number, score: number): SearchResult => {
    // A question about the past wants what was true then: no recency, no demotion (query-time.ts).
    const recency = (when.past ? 1 : recencyBoost(r.date, req.today)) * monthBoost(r.date, when);
    const status = when.past && r.status === 'superseded' ? 1 : statusBoost(r.status);
    const l = lexRank.get(doc);
    const v = vecRank.get(doc);
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
  for (const [doc, score] of order) {
    if (groups.size >= req.k * 3) break;
    const seg = segmentOf(view.segments, doc);
    if (!seg || view.isDead(doc)) continue;
    const r: DocRecord = asShown(seg.record(doc));
    if (!keep(r)) continue;
    const key = `${r.tier}:${r.group}`;
    const seen = groups.get(key);
    if (seen) {
      seen.startLine = Math.min(seen.startLine, r.startLine);
      seen.endLine = Math.max(seen.endLine, r.endLine);
      continue;
    }
    groups.set(key, result(r, doc, score));
  }
  let ranked = [...groups.values()].sort((a, b) => b.score - a.score);
  if (when.past) {
    ranked = liftPredecessors(
      ranked,
      req.k,
      (x) => supersedes.get(x) ?? null,
      (id) => {
        const found = entryDoc(view, id);
        const r = found && asShown(found.record);
        return r && keep(r) && !groups.has(`${r.tier}:${r.group}`) ? result(r, found.doc, 0) : null;
      },
    );
  }
  return ranked.slice(0, shortlist(req.k));
}

function unusable(tier: Tier, problem: string): string {
  return `${tier} index unusable (${problem}): searched the files in memory (slower); run "mem index" to rebuild it`;
}

/**
 * The entry that names `id` in its `supersedes` field: the tiers searched first, then the other's
 * index. A searched tier whose segment files fail now (truncated or replaced after the query read
 * them) is reopened from its files, as a failing query is, so the answer and its "superseded by"
 * hint survive; another tier's damaged index only loses the hint.
 */
async function successorAnywhere(
  req: SearchRequest,
  opens: OpenedTier[],
  files: Map<Tier, ScannedFile[]>,
  notices: string[],
  id: string,
): Promise<string | null> {
  for (let i = 0; i < opens.length; i++) {
    let o = opens[i]!;
    let here: string | null;
    try {
      here = successor(o.view.segments, o.view.isDead, id);
    } catch (err) {
      if (o.problem) throw err;
      o.close();
      const problem = (err as Error).message;
      o = opens[i] = await openTier(req.workspace, o.tier, files.get(o.tier) ?? [], req.search, problem);
      notices.push(unusable(o.tier, problem));
      here = successor(o.view.segments, o.view.isDead, id);
    }
    if (here) return here;
  }
  for (const tier of TIERS) {
    if (opens.some((o) => o.tier === tier)) continue;
    const load = loadTierHead(req.workspace, tier);
    if (!('head' in load)) continue;
    const segs = load.head.segments.map((x) =>
      DiskSegment.open(path.join(req.workspace, INDEX_DIR), x.name, x.first, x.count),
    );
    try {
      const found = successor(segs, deadSet(load.head.dead), id);
      if (found) return found;
    } catch {
      // a damaged index only loses the "superseded by" hint
    } finally {
      segs.forEach((x) => x.close());
    }
  }
  return null;
}

export async function runSearch(req: SearchRequest): Promise<SearchOutcome> {
  if (!req.query.trim())
    throw new MemError('USAGE', 'the query is empty; give some words to search for, e.g. mem search "why postgres"');
  const { terms, response, notices } = startSearch(req.query);
  if (!terms.length) return { response, notices };
  const results: SearchResult[] = [];
  const opens: OpenedTier[] = [];
  const files = new Map<Tier, ScannedFile[]>();
  for (const tier of TIERS) {
    if (tier === 'cold' && !req.deep && results.length >= req.k) break;
    const tierFiles = scanWorkspace(req.workspace, req.extraPaths, tier);
    files.set(tier, tierFiles);
    let opened = await openTier(req.workspace, tier, tierFiles, req.search);
    let found: SearchResult[];
    try {
      found = await searchTier(req, req.vectors, opened, terms, notices);
    } catch (err) {
      // A damaged segment file (truncated, removed by a concurrent rebuild): answer from memory.
      if (opened.problem) throw err;
      opened.close();
      opened = await openTier(req.workspace, tier, tierFiles, req.search, `${(err as Error).message}`);
      found = await searchTier(req, req.vectors, opened, terms, notices);
    }
    opens.push(opened);
    if (opened.problem) {
      notices.push(
        opened.problemKind === 'missing'
          ? `no ${tier} index yet: searched the files in memory (slower); run "mem index"`
          : unusable(tier, opened.problem),
      );
    }
    mergeTier(req, opened, found, response, results, notices);
  }
  try {
    for (const r of results)
      if (r.status === 'superseded' && r.id) r.supersededBy = await successorAnywhere(req, opens, files, notices, r.id);
  } finally {
    opens.forEach((o) => o.close());
  }
  return finishSearch(req, response, results, notices, terms, req.wholeText ?? wholeTextReader(req.workspace));
}
