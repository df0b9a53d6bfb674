/** The shapes shared by the index and the query path (DESIGN §6). Pure types, no imports at run time. */
import type { EntrySource } from '../../entries/model.js';

export const TIERS = ['warm', 'cold'] as const;
/** `archive` (raw transcripts, searched only with --archive) is left for the archival issue. */
export type Tier = (typeof TIERS)[number];

export interface Chunk {
  /** Workspace-relative with `/`, or absolute for an extra path outside the workspace. */
  path: string;
  startLine: number;
  endLine: number;
  /** Heading text without `#` (`Decision: Keep SQLite`), or null before the first heading. */
  heading: string | null;
  text: string;
  /** Front-matter title and tags, indexed with the heading. */
  title: string | null;
  tags: string | null;
  entryId: string | null;
  kind: string | null;
  /** An entry's status; null for any other chunk. */
  status: string | null;
  date: string | null;
  scope: string | null;
  key: string | null;
  supersedes: string | null;
  source: EntrySource | null;
  /**
   * The entry a MEMORY.md item cites (its link, chunk.ts). The item keeps no status of its own: the
   * query takes the entry's current one (cited.ts), since `mem forget` changes the daily file only.
   */
  cites: string | null;
  /** Windows of one entry or section share it, so they merge into one result. */
  group: string;
}

/** What the index keeps per chunk: the chunk plus its tier, its global id and its field lengths. */
export interface DocRecord extends Chunk {
  tier: Tier;
  doc: number;
}

export const FIELDS = ['title', 'body', 'id'] as const;
export type FieldName = (typeof FIELDS)[number];

/** Terms per field of one chunk, in order (repeats are term frequencies). */
export type FieldTokens = [string[], string[], string[]];

/** What of the configuration decides a file's chunks (config.search, with the time zone of dates). */
export interface ChunkSettings {
  chunkTokens: number;
  overlapTokens: number;
}

export interface ChunkOptions {
  chunkTokens: number;
  overlapTokens: number;
  /** MEMORY.md: each list item is its own chunk. */
  listItems: boolean;
  /** Section finder; default: remark when needed, else the equivalent line scan (chunk.ts). */
  parser?: 'remark' | 'headings' | 'blocks';
}
