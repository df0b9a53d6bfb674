/** Chunks → indexable docs: ids, tiers and the tokens of the three fields (title, body, id). */
import { chunkMarkdown, MAX_TEXT } from './chunk.js';
import type { BuiltDoc } from './segment-format.js';
import { fold } from './fold.js';
import { tokenize, tokenizeFolded } from './tokenize.js';
import type { Chunk, ChunkOptions, FieldTokens, Tier } from './types.js';

export function fieldTokens(c: Chunk): FieldTokens {
  const id = [c.entryId, c.key].filter((x): x is string => !!x).map(fold);
  return [
    tokenize([c.heading, c.title, c.tags].filter(Boolean).join(' ')),
    tokenize(c.text),
    // `sup:<id>` lets a superseded entry's result name its successor with one posting read.
    [...id, ...tokenizeFolded(id.join(' ')), ...(c.supersedes ? [`sup:${fold(c.supersedes.trim())}`] : [])],
  ];
}

export function chunkOptions(path: string, search: { chunkTokens: number; overlapTokens: number }): ChunkOptions {
  return {
    chunkTokens: search.chunkTokens,
    overlapTokens: Math.min(search.overlapTokens, Math.floor(search.chunkTokens / 2)),
    listItems: path === 'MEMORY.md',
  };
}

/** Docs of one file with ids first, first+1, ...; text stored at most MAX_TEXT characters. */
export function buildDocs(path: string, text: string, tier: Tier, first: number, search: { chunkTokens: number; overlapTokens: number }): BuiltDoc[] {
  return chunkMarkdown(path, text, chunkOptions(path, search)).map((c, i) => ({
    record: { ...c, text: c.text.length > MAX_TEXT ? c.text.slice(0, MAX_TEXT) : c.text, tier, doc: first + i },
    tokens: fieldTokens(c),
  }));
}
