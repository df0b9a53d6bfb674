/**
 * Chunks → indexable docs: ids, tiers and the tokens of the three fields (title, body, id). Two
 * forms with one definition of the fields: buildDocs gives token strings (the search-time overlay),
 * addDocs feeds a segment builder with term ids straight from the tokenizer (`mem index`, where
 * allocating every token as a string was most of the cost). A unit test holds them equal.
 */
import { chunkMarkdown, MAX_TEXT } from '../text/chunk.js';
import type { PendingRecord, SegmentBuilder } from './segment-builder.js';
import type { BuiltDoc } from './segment-format.js';
import { foldText, tokenize, tokenizeFolded } from '../text/tokenize.js';
import type { Chunk, ChunkOptions, FieldTokens, Tier } from '../text/types.js';

/** The title field's text: heading, front-matter title and tags. */
function titleText(c: Chunk): string {
  return [c.heading, c.title, c.tags].filter(Boolean).join(' ');
}

/**
 * The id field: entry id and key whole, their words (no stems: a stem boosted as an id would outrank
 * the exact word in a body), and `sup:<id>` of what the entry supersedes.
 */
function idTokens(c: Chunk): string[] {
  const id = [c.entryId, c.key].filter((x): x is string => !!x).map(foldText);
  // `sup:<id>` lets a superseded entry's result name its successor with one posting read.
  return [
    ...id,
    ...tokenizeFolded(id.join(' '), false, true),
    ...(c.supersedes ? [`sup:${foldText(c.supersedes.trim())}`] : []),
  ];
}

export function fieldTokens(c: Chunk): FieldTokens {
  return [tokenize(titleText(c), true), tokenize(c.text, true), idTokens(c)];
}

export function chunkOptions(path: string, search: { chunkTokens: number; overlapTokens: number }): ChunkOptions {
  return {
    chunkTokens: search.chunkTokens,
    overlapTokens: Math.min(search.overlapTokens, Math.floor(search.chunkTokens / 2)),
    listItems: path === 'MEMORY.md',
  };
}

/** The stored record; `doc` is always its last key (the segment builder appends it). */
export function docRecord(c: Chunk, tier: Tier): PendingRecord {
  return { ...c, text: c.text.length > MAX_TEXT ? c.text.slice(0, MAX_TEXT) : c.text, tier };
}

/** Docs of one file with ids first, first+1, ...; text stored at most MAX_TEXT characters. */
export function buildDocs(
  path: string,
  text: string,
  tier: Tier,
  first: number,
  search: { chunkTokens: number; overlapTokens: number },
): BuiltDoc[] {
  return fileChunks(path, text, search).map((c, i) => ({
    record: { ...docRecord(c, tier), doc: first + i },
    tokens: fieldTokens(c),
  }));
}

/** The chunks of one file, as buildDocs and addDocs cut them. */
export function fileChunks(
  path: string,
  text: string,
  search: { chunkTokens: number; overlapTokens: number },
): Chunk[] {
  return chunkMarkdown(path, text, chunkOptions(path, search));
}

/** All of a chunk's text that is folded (fold.ts prepareFold). */
export function foldedText(c: Chunk): string {
  return [titleText(c), c.text, c.entryId, c.key, c.supersedes].filter(Boolean).join('\n');
}

/** The same docs as buildDocs, added to `builder` (numbered by it); returns how many. */
export function addDocs(
  builder: SegmentBuilder,
  path: string,
  text: string,
  tier: Tier,
  search: { chunkTokens: number; overlapTokens: number },
): number {
  const chunks = fileChunks(path, text, search);
  addChunks(builder, chunks, tier);
  return chunks.length;
}

/** Chunks added to `builder` as docs (numbered by it). */
export function addChunks(builder: SegmentBuilder, chunks: readonly Chunk[], tier: Tier): void {
  const ids = builder.ids;
  for (const c of chunks) {
    ids.reset();
    ids.text(foldText(titleText(c)));
    ids.endField();
    ids.text(foldText(c.text));
    ids.endField();
    for (const t of idTokens(c)) ids.term(t);
    ids.endField();
    builder.addIds(docRecord(c, tier));
  }
}

/** How many docs buildDocs/addDocs give for this file (chunking only, no tokens). */
export function countDocs(path: string, text: string, search: { chunkTokens: number; overlapTokens: number }): number {
  return fileChunks(path, text, search).length;
}
