/**
 * What a search asks and answers: the request, each hit with its score parts, the response of one tier
 * and the whole outcome. Types only, apart from search.ts so its helpers need not import it.
 */
import type { EntrySource } from '../../entries/model.js';
import type { Filters } from './filter.js';
import type { Ranked } from './rank.js';
import type { Tier } from '../text/types.js';
import type { OpenedTier } from '../index/view.js';

export interface SearchScores {
  lexical: number | null;
  lexicalRank: number | null;
  vector: number | null;
  vectorRank: number | null;
  fused: number;
  recency: number;
  status: number;
}

/** Vector ranking of a tier (embeddings), or null when there is none; errors become warnings upstream. */
export type VectorRanker = (
  opened: OpenedTier,
  query: string,
  limit: number,
) => Promise<(Ranked & { cosine: number })[] | null>;

export interface SearchResult {
  path: string;
  startLine: number;
  endLine: number;
  heading: string | null;
  snippet: string;
  text: string;
  score: number;
  scores: SearchScores;
  id: string | null;
  kind: string | null;
  status: string | null;
  date: string | null;
  source: EntrySource | null;
  tier: Tier;
  supersededBy: string | null;
  /** With --max-chars: the text was narrowed to the lines that answer (startLine/endLine narrowed too). */
  cut?: true;
}

export interface SearchResponse {
  query: string;
  /** The deepest tier searched: `warm`, or `cold` when the cold tier was consulted too. */
  tier: Tier;
  indexBehind: boolean;
  results: SearchResult[];
}

export interface SearchRequest {
  workspace: string;
  query: string;
  k: number;
  deep: boolean;
  filters: Filters;
  today: string;
  extraPaths: string[];
  search: { chunkTokens: number; overlapTokens: number };
  vectors?: VectorRanker;
  /** Reads a cut result's whole text for its snippet (default: a new wholeTextReader). */
  wholeText?: WholeTextReader;
}

export interface SearchOutcome {
  response: SearchResponse;
  notices: string[];
  /**
   * The words a terminal marks in the snippets (assemble.ts markWords): worked out by the search, so
   * whoever prints the outcome (a resident server's client too) loads no Chinese tables. None when
   * there are no results.
   */
  marks?: string[];
}

export type WholeTextReader = (r: SearchResult) => string | null;
