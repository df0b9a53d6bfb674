/**
 * The minisearch state of one query, built from the postings its terms read (engine.ts), through
 * minisearch's public API only: its documented serialised form (MiniSearch.loadJS) and search
 * options. No protected field is read or written, so any 7.x release of minisearch works.
 *
 * With `keep` (bm25-cutoff.ts), only those docs are loaded. minisearch takes a term's document
 * frequency in a field from the docs loaded for it, so a kept doc's score would use a smaller df
 * than the whole tier's: fieldBoosts() gives, per term and field, the factor idf(true df) /
 * idf(loaded df), which the engine passes as that term's field boosts (a sub-query per term). BM25
 * multiplies its whole per-field score by the IDF, so the kept docs score as among all docs (to the
 * last bits of floating point), in the same order; a test compares both ways.
 */
import MiniSearch, { type AsPlainObject } from 'minisearch';
import { idf } from './bm25.js';
import { ReadDocs } from './read-docs.js';
import { FIELDS } from '../text/types.js';

/** One term's postings in one field: docs with their term frequencies, in the order read. */
export interface Run {
  docs: Uint32Array;
  tfs: Uint32Array;
}

/** What minisearch needs to rank, gathered from the segments. */
export interface Postings {
  documentCount: number;
  avgLen: number[];
  /** Every doc of the postings (slots in the order first read) and its [title, body, id] lengths. */
  read: ReadDocs;
  /** Per term, per field id, its run. */
  index: [string, Map<number, Run>][];
}

const FIELD_IDS = Object.fromEntries(FIELDS.map((f, i) => [f, i]));
export const identity = (s: string) => [s];
const OPTIONS = { fields: [...FIELDS], tokenize: identity, processTerm: (t: string) => t };

/** doc → tf of a run's docs (those in `keep`, when given), docs ascending as loadJS reads object keys. */
function runObject(run: Run, keep?: Set<number>): Record<number, number> {
  const out: Record<number, number> = {};
  for (let i = 0; i < run.docs.length; i++) if (!keep || keep.has(run.docs[i]!)) out[run.docs[i]!] = run.tfs[i]!;
  return out;
}

/** The docs of a run that `keep` lets through (all of them without `keep`). */
function keptCount(run: Run, keep?: Set<number>): number {
  if (!keep) return run.docs.length;
  let n = 0;
  for (const doc of run.docs) if (keep.has(doc)) n++;
  return n;
}

/** The postings as minisearch's serialised form: the docs in `keep` (every doc without it) and their runs. */
export function loadPostings(p: Postings, keep?: Set<number>): MiniSearch {
  const documentIds: Record<number, number> = {};
  const fieldLength: Record<number, number[]> = {};
  p.read.docs.forEach((doc, i) => {
    if (keep && !keep.has(doc)) return;
    documentIds[doc] = doc;
    fieldLength[doc] = [p.read.lens[3 * i]!, p.read.lens[3 * i + 1]!, p.read.lens[3 * i + 2]!];
  });
  const js: AsPlainObject = {
    documentCount: p.documentCount,
    nextId: p.read.nextId,
    documentIds,
    fieldIds: FIELD_IDS,
    fieldLength,
    averageFieldLength: p.avgLen,
    storedFields: {},
    dirtCount: 0,
    index: p.index.map(([term, fields]) => [
      term,
      Object.fromEntries([...fields].map(([f, run]) => [f, runObject(run, keep)])),
    ]),
    serializationVersion: 2,
  };
  return MiniSearch.loadJS(js, OPTIONS);
}

/**
 * Per term, the factor by field (title, body, id) that gives the docs loaded with `keep` the IDF of
 * every doc the term's runs hold: idf(run length) / idf(kept docs of the run). 1 where nothing was cut.
 */
export function fieldBoosts(p: Postings, keep: Set<number>): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const [term, fields] of p.index) {
    out.set(
      term,
      FIELDS.map((_, f) => {
        const run = fields.get(f);
        const kept = run ? keptCount(run, keep) : 0;
        if (!run || kept === 0 || kept === run.docs.length) return 1;
        return idf(p.documentCount, run.docs.length) / idf(p.documentCount, kept);
      }),
    );
  }
  return out;
}
