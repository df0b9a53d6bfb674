/**
 * `mem search --archive`: the archive tier's turn windows ranked by the one ranking of every tier
 * (search/query/rank-tier.ts: the memory index's lexical engine, minisearch's BM25, fused with cosine
 * ranks when the archive is embedded) over the archive's segments opened as one tier (view.ts); this
 * module is the archive's TierSource: its terms, filters, vectors and hits (DESIGN §6, third tier).
 * Reads only the state, the segments' meta, the query terms' dictionary shards and postings and the
 * winning docs' lines; writes nothing. Docs of retired files (rewritten or gone) and purged docs are
 * never returned. Default search and `mem context` never import this module: the archive is searched
 * only when asked for.
 */
import { queryTerms } from '../search/text/tokenize.js';
import { storedSessionPath } from '../extract/trust.js';
import { transcriptsBehind } from './status.js';
import { rankTier, type TierSource } from '../search/query/rank-tier.js';
import type { Ranked } from '../search/query/rank.js';
import { segmentOf } from '../search/index/doc-runs.js';
import { asWindow, type ArchiveDoc } from './format.js';
import { AFTER, firstTurns, snippet } from './snippet.js';
import { isOutdated, loadState, type ArchiveState } from './store.js';
import { readVectors, vectorPairs } from './vectors.js';
import { nearest } from '../search/embed/embed-query.js';
import { openArchiveView, type ArchiveView } from './view.js';

const FUSE_DEPTH = 100;

export interface ArchiveQuery {
  query: string;
  k: number;
  /** Only windows whose first turn is at or after this moment (ms since the epoch). */
  sinceMs?: number;
  source?: string;
  session?: string;
  /** The query's embedding (archive.embed): fused with BM25 (search/query/fusion.ts) where segments have vectors. */
  vector?: Float32Array;
}

export interface ArchiveHit {
  /** BM25, or its fusion with the cosine when the query was embedded. */
  score: number;
  /** Cosine with the query's embedding, null without one. */
  cosine: number | null;
  source: string;
  sessionId: string;
  /** The transcript as memory names it (`session_path`): `~` for home, a token in a folder or file name redacted. */
  sessionPath: string;
  /** Turn range, 1-based inclusive, as `message_range` counts. */
  turns: string;
  timestamp: string | null;
  bytes: [number, number];
  snippet: string;
}

export interface ArchiveResponse {
  tier: 'archive';
  query: string;
  results: ArchiveHit[];
  docs: number;
  /** Transcripts that changed since the last `mem archive` (their new lines are not searched yet). */
  behind: number;
  indexed: boolean;
  /** Segments left out because their files are damaged (the next `mem archive` rebuilds them). */
  damaged: string[];
  /** The archive was written by an older memfold: nothing searched until `mem archive` rebuilds it. */
  outdated: boolean;
}

export async function searchArchive(workspace: string, q: ArchiveQuery): Promise<ArchiveResponse> {
  try {
    return await search(workspace, q);
  } catch (err) {
    // A purge replaced a segment between reading the state and opening it: the new state names the new one.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return search(workspace, q);
    throw err;
  }
}

async function search(workspace: string, q: ArchiveQuery): Promise<ArchiveResponse> {
  const state = loadState(workspace);
  const empty: ArchiveResponse = {
    tier: 'archive',
    query: q.query,
    results: [],
    docs: 0,
    behind: 0,
    indexed: !!state,
    damaged: [],
    outdated: isOutdated(state),
  };
  if (!state || isOutdated(state)) return empty;
  const av = openArchiveView(workspace, state);
  try {
    const { results } = await rankTier(archiveSource(workspace, state, av, q), q.k);
    return { ...empty, results, behind: transcriptsBehind(state.files), docs: av.view.docCount, damaged: av.damaged };
  } finally {
    av.close();
  }
}

/** The archive as a tier of the one ranking (search/query/rank-tier.ts): its windows, filters, vectors and hits. */
function archiveSource(
  workspace: string,
  state: ArchiveState,
  av: ArchiveView,
  q: ArchiveQuery,
): TierSource<ArchiveHit> {
  const byNo = new Map(Object.entries(state.files).map(([file, f]) => [f.no, { file, ...f }]));
  // Ranked without query-side stop words, as the memory tiers are (a window full of `the`, `was` or
  // `什么` no longer gains minisearch's multiplier for matched terms); the snippet shows the lines
  // holding any word, stop words too: without them it showed fewer of the answering turns (issue 32,
  // dev recall@5 73.1 → 61.5). On dev `--archive`, with the snippet's follow rule: recall@10 84.6 → 88.5.
  const terms = queryTerms(q.query, 64);
  const words = queryTerms(q.query, 64, false);
  const filtered = q.sinceMs !== undefined || !!q.source || !!q.session;
  /** A live doc passes the query's filters (dead docs, retired or purged, the engine never returns). */
  const keep = (doc: number, si: number) => {
    const [secs, no] = av.meta(doc, si);
    const f = byNo.get(no);
    if (!f) return false;
    if (q.sinceMs !== undefined && secs * 1000 < q.sinceMs) return false;
    if (q.source && f.source !== q.source) return false;
    return !q.session || f.sessionId === q.session;
  };
  const live = (doc: number, si: number) => !av.view.isDead(doc) && keep(doc, si);
  const vector = q.vector;
  return {
    view: av.view,
    terms,
    depth: Math.max(FUSE_DEPTH, q.k),
    accept: filtered ? (doc, seg) => keep(doc, av.indexOf(seg)) : undefined,
    // No RM3 feedback: on dev `--archive` it cost recall@5 (80.8 → 76.9, issue 32).
    ...(vector ? { vectors: async () => vectorRanks(workspace, av, vector, live, FUSE_DEPTH), docTies: true } : {}),
    // Consecutive windows of one transcript lend each other part of their scores (neighbours.ts).
    adjacent: (doc, other) => {
      const si = av.indexOf(segmentOf(av.segments, other));
      return (
        si >= 0 &&
        !av.view.isDead(other) &&
        av.meta(other, si)[1] === av.meta(doc, av.indexOf(segmentOf(av.segments, doc)))[1]
      );
    },
    wanted: q.k,
    result: (doc, score, _lexical, cosine) => {
      const seg = segmentOf(av.segments, doc)!;
      const d = asWindow(seg.record(doc));
      const f = byNo.get(d.f)!;
      return {
        score: Math.round(score * 1000) / 1000,
        cosine: cosine ? Math.round(cosine.score * 1000) / 1000 : null,
        source: f.source,
        sessionId: d.s,
        sessionPath: storedSessionPath(f.file),
        turns: `${d.a}-${d.b}`,
        timestamp: d.t,
        bytes: [d.o, d.e],
        snippet: snippet(d.x, words, () => nextTurns(av, doc, d)),
      };
    },
  };
}

/** Windows by cosine with the query, best first (embed-query.ts's own scoring loop, segment by segment). */
function vectorRanks(
  workspace: string,
  av: ArchiveView,
  query: Float32Array,
  keep: (doc: number, seg: number) => boolean,
  limit: number,
): Ranked[] {
  const out: Ranked[] = [];
  av.entries.forEach((s, si) => {
    const v = readVectors(workspace, s);
    if (!v || v.dims !== query.length) return;
    const rows = { dims: v.dims, count: s.docs, vectors: v.rows };
    out.push(...nearest(query, rows, vectorPairs(v, s.first), (doc) => !keep(doc, si), limit));
  });
  return out.sort((a, b) => b.score - a.score || a.doc - b.doc).slice(0, limit);
}

/** The first turns of the window after `d` when it continues the same transcript (the snippet's answer may be there). */
function nextTurns(av: ArchiveView, doc: number, d: ArchiveDoc): string | undefined {
  const seg = segmentOf(av.segments, doc + 1);
  if (!seg || av.view.isDead(doc + 1)) return undefined;
  const n = asWindow(seg.record(doc + 1));
  return n.f === d.f && n.a === d.b + 1 && !n.purged ? firstTurns(n.x, AFTER) : undefined;
}
