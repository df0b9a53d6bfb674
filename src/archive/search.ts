/**
 * `mem search --archive`: BM25 over the archive tier's turn windows (DESIGN §6, third tier). Reads
 * only the state, the query terms' shards and the winning docs' lines; writes nothing. Docs of
 * retired files (rewritten or gone) and purged docs are never returned. Default search and `mem
 * context` never import this module: the archive is searched only when asked for.
 */
import { fold } from '../search/text/fold.js';
import { queryTerms, stemWeights } from '../search/text/tokenize.js';
import { storedSessionPath } from '../extract/trust.js';
import { RRF_K } from '../search/query/rank.js';
import { transcriptsBehind } from './status.js';
import { loadState, SegmentReader, segmentDamage } from './store.js';
import { cosines, readVectors } from './vectors.js';

const K1 = 1.2;
const B = 0.75;
const SNIPPET = 320;
const FUSE_DEPTH = 100;

export interface ArchiveQuery {
  query: string;
  k: number;
  /** Only windows whose first turn is at or after this moment (ms since the epoch). */
  sinceMs?: number;
  source?: string;
  session?: string;
  /** The query's embedding (archive.embed): fused with BM25 by reciprocal rank where segments have vectors. */
  vector?: Float32Array;
}

export interface ArchiveHit {
  /** BM25, or the reciprocal-rank fusion of BM25 and cosine when the query was embedded. */
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
}

export function searchArchive(workspace: string, q: ArchiveQuery): ArchiveResponse {
  try {
    return search(workspace, q);
  } catch (err) {
    // A purge replaced a segment between reading the state and opening it: the new state names the new one.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return search(workspace, q);
    throw err;
  }
}

function search(workspace: string, q: ArchiveQuery): ArchiveResponse {
  const state = loadState(workspace);
  const empty: ArchiveResponse = {
    tier: 'archive',
    query: q.query,
    results: [],
    docs: 0,
    behind: 0,
    indexed: !!state,
    damaged: [],
  };
  if (!state) return empty;
  const damaged: string[] = [];
  const usable = state.segments.filter((s) => {
    const why = segmentDamage(workspace, s);
    if (why) damaged.push(why);
    return !why;
  });
  const byNo = new Map(Object.entries(state.files).map(([file, f]) => [f.no, { file, ...f }]));
  const behind = transcriptsBehind(state.files);
  // Every word, stop words too: a window's snippet is its lines holding a query term, and on the
  // labelled set (issue 32) leaving them out showed fewer of the answering turns (recall@5 73.1 → 61.5).
  const terms = queryTerms(q.query, 64, false);
  const weights = stemWeights(terms);
  const N = usable.reduce((n, s) => n + s.docs, 0);
  const avg = usable.reduce((n, s) => n + s.tokens, 0) / Math.max(1, N);
  const segs = usable.map((s) => SegmentReader.open(workspace, s.name, s.docs));
  try {
    const keep = (si: number, doc: number) => {
      const m = segs[si]!.meta(doc);
      const f = byNo.get(m[4]!);
      if (!f) return false; // retired: rewritten or gone
      if (q.sinceMs !== undefined && m[3]! * 1000 < q.sinceMs) return false;
      if (q.source && f.source !== q.source) return false;
      return !q.session || f.sessionId === q.session;
    };
    const lists = segs.map((seg) => terms.map((t) => seg.postings(t)));
    const df = terms.map((_, i) => lists.reduce((n, l) => n + l[i]!.length, 0));
    const scored: Array<{ seg: number; doc: number; score: number }> = [];
    segs.forEach((seg, si) => {
      const scores = new Map<number, number>();
      terms.forEach((term, ti) => {
        const idf = (weights.get(term) ?? 1) * Math.log(1 + (N - df[ti]! + 0.5) / (df[ti]! + 0.5));
        for (const [doc, tf] of lists[si]![ti]!) {
          const len = seg.meta(doc)[2]!;
          scores.set(doc, (scores.get(doc) ?? 0) + (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * len) / avg)));
        }
      });
      for (const [doc, score] of scores) if (keep(si, doc)) scored.push({ seg: si, doc, score });
    });
    scored.sort((a, b) => b.score - a.score || a.seg - b.seg || a.doc - b.doc);
    const ranked = q.vector
      ? fuse(scored, vectorRanks(workspace, usable, q.vector, keep))
      : scored.map((h) => ({ ...h, cosine: null }));
    const results = ranked.slice(0, q.k).map(({ seg, doc, score, cosine }) => {
      const d = segs[seg]!.doc(doc);
      const f = byNo.get(d.f)!;
      return {
        score: Math.round(score * 1000) / 1000,
        cosine: cosine === null ? null : Math.round(cosine * 1000) / 1000,
        source: f.source,
        sessionId: d.s,
        sessionPath: storedSessionPath(f.file),
        turns: `${d.a}-${d.b}`,
        timestamp: d.t,
        bytes: [d.o, d.e] as [number, number],
        snippet: snippet(d.x, terms),
      };
    });
    return { ...empty, results, docs: N, behind, damaged };
  } finally {
    for (const s of segs) s.close();
  }
}

type Hit = { seg: number; doc: number; score: number };

/** Windows by cosine with the query, best first (segments without vectors have none). */
function vectorRanks(
  workspace: string,
  segments: Array<{ name: string; docs: number; dims?: number }>,
  query: Float32Array,
  keep: (seg: number, doc: number) => boolean,
): Hit[] {
  const out: Hit[] = [];
  segments.forEach((s, si) => {
    const v = readVectors(workspace, s);
    if (v)
      for (const { doc, cosine } of cosines(v, query)) if (keep(si, doc)) out.push({ seg: si, doc, score: cosine });
  });
  return out.sort((a, b) => b.score - a.score || a.seg - b.seg || a.doc - b.doc);
}

/** Reciprocal-rank fusion of the top FUSE_DEPTH of each list, as Markdown search fuses (search/rank.ts). */
function fuse(lexical: Hit[], vector: Hit[]): Array<Hit & { cosine: number | null }> {
  const key = (h: Hit) => `${h.seg}:${h.doc}`;
  const cos = new Map(vector.map((h) => [key(h), h.score]));
  const fused = new Map<string, Hit>();
  for (const list of [lexical.slice(0, FUSE_DEPTH), vector.slice(0, FUSE_DEPTH)]) {
    list.forEach((h, i) => {
      const f = fused.get(key(h)) ?? { seg: h.seg, doc: h.doc, score: 0 };
      f.score += 1 / (RRF_K + i + 1);
      fused.set(key(h), f);
    });
  }
  return [...fused.values()]
    .sort((a, b) => b.score - a.score || a.seg - b.seg || a.doc - b.doc)
    .map((h) => ({ ...h, cosine: cos.get(key(h)) ?? null }));
}

/**
 * The window's turns that hold query terms, each with the turn after it (a question's answer
 * follows it and shares few of its words: showing it took the labelled set's archive queries from
 * recall@5 73.1 to 76.9 on dev, issue 32), cut to SNIPPET characters. A turn is its `[n] role:` line
 * and the lines up to the next one. Lines are folded as the index folds them, so `决定` finds the
 * line that says `決定`.
 */
export function snippet(text: string, terms: string[]): string {
  const lines = text.split('\n');
  const low = (s: string) => fold(s);
  // Each line's turn: a `[n] ` line starts one; lines before the first are turn 0.
  let turn = 0;
  const turnOf = lines.map((l) => (/^\[\d+\] /.test(l) ? ++turn : turn));
  const hitTurns = new Set(lines.flatMap((l, i) => (terms.some((t) => low(l).includes(t)) ? [turnOf[i]!] : [])));
  const hit = lines.filter((_, i) => hitTurns.has(turnOf[i]!) || hitTurns.has(turnOf[i]! - 1));
  const out = (hit.length ? hit : lines).join(' … ').replace(/\s+/g, ' ');
  if (out.length <= SNIPPET) return out;
  const first = Math.max(0, Math.min(...terms.map((t) => low(out).indexOf(t)).filter((i) => i >= 0), out.length) - 60);
  return `${first ? '… ' : ''}${out.slice(first, first + SNIPPET)} …`;
}
