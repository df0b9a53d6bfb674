/**
 * The minisearch state of one query, built from the postings its terms read (engine.ts): through the
 * documented serialised form (viaLoadJS, the reference), or directly into the Maps that form loads
 * into (direct, the fast path). minisearch's version is pinned in package.json.
 */
import MiniSearch from 'minisearch';
import { ReadDocs } from './read-docs.js';
import { FIELDS } from '../text/types.js';

/** The loaded state direct() replaces (protected in minisearch's types). */
type Internals = Record<'_index' | '_documentIds' | '_idToShortId' | '_fieldLength', unknown>;

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

/** The [title, body, id] lengths of the docs read (those in `keep`, when given), in the order read, as minisearch holds them. */
function lengthMap(read: ReadDocs, keep?: Set<number>): Map<number, number[]> {
  const m = new Map<number, number[]>();
  read.docs.forEach((doc, i) => {
    if (!keep || keep.has(doc)) m.set(doc, [read.lens[3 * i]!, read.lens[3 * i + 1]!, read.lens[3 * i + 2]!]);
  });
  return m;
}

const FIELD_IDS = Object.fromEntries(FIELDS.map((f, i) => [f, i]));
export const identity = (s: string) => [s];
const OPTIONS = { fields: [...FIELDS], tokenize: identity, processTerm: (t: string) => t };

/**
 * doc → tf of a run, docs ascending (the order of Object.keys over integer keys, which loadJS would
 * see, so ties rank alike): every doc, or the kept ones with the run's full length as `size`.
 */
function runMap(run: Run, keep?: Set<number>): Map<number, number> {
  const kept: number[] = [];
  for (let i = 0; i < run.docs.length; i++) if (!keep || keep.has(run.docs[i]!)) kept.push(i);
  kept.sort((a, b) => run.docs[a]! - run.docs[b]!);
  const m = new Map<number, number>();
  for (const i of kept) m.set(run.docs[i]!, run.tfs[i]!);
  // minisearch reads a doc map's size as the term's document frequency in that field.
  if (keep) Object.defineProperty(m, 'size', { value: run.docs.length });
  return m;
}

/** The documented serialised form (minisearch 7.2.0): objects keyed by doc id, read by loadJS; every doc. */
export function viaLoadJS(p: Postings): MiniSearch {
  const obj = <V>(m: Map<number, V>) => Object.fromEntries(m) as Record<number, V>;
  const docs = [...p.read.docs].sort((a, b) => a - b);
  return (MiniSearch as unknown as { loadJS(js: unknown, o: unknown): MiniSearch }).loadJS(
    {
      documentCount: p.documentCount,
      nextId: p.read.nextId,
      documentIds: Object.fromEntries(docs.map((d) => [d, d])),
      fieldIds: FIELD_IDS,
      fieldLength: obj(lengthMap(p.read)),
      averageFieldLength: p.avgLen,
      storedFields: {},
      dirtCount: 0,
      index: p.index.map(([term, fields]) => [
        term,
        Object.fromEntries([...fields].map(([f, run]) => [f, obj(runMap(run))])),
      ]),
      serializationVersion: 2,
    },
    OPTIONS,
  );
}

/**
 * The state MiniSearch.loadJS (7.2.0, pinned) builds from the serialised form, built from the
 * postings directly: loadJS turns every doc id of every object into a string and back (Object.keys,
 * parseInt), which cost more than the ranking itself on common terms. Same Maps, same insertion
 * order (docs ascending, as Object.keys gives them), so the same scores and the same order of ties;
 * a test compares both ways. Should a minisearch upgrade change these internals, the check below
 * sends every query through loadJS instead (every doc ranked).
 *
 * With `keep` (bm25-cutoff.ts), only those docs are handed over: each term's doc map holds the
 * kept docs but reports the term's full document count as its size, which is what minisearch reads
 * as the document frequency, so the kept docs score exactly as among all.
 */
export function direct(p: Postings, keep?: Set<number>): MiniSearch {
  const loaded = viaLoadJS({ ...p, read: new ReadDocs([]), index: [] });
  const ms = loaded as unknown as Internals;
  const index = ms._index as { set?: unknown } | undefined;
  if (
    !(ms._documentIds instanceof Map) ||
    !(ms._idToShortId instanceof Map) ||
    !(ms._fieldLength instanceof Map) ||
    typeof index?.set !== 'function'
  )
    return viaLoadJS(p);
  const lengths = lengthMap(p.read, keep);
  const ids = new Map<number, number>();
  for (const doc of lengths.keys()) ids.set(doc, doc);
  ms._documentIds = ids;
  // Short ids are the doc ids themselves; the reverse map is only read by add/remove, never by search.
  ms._idToShortId = ids;
  ms._fieldLength = lengths;
  for (const [term, fields] of p.index) {
    const byField = new Map<number, Map<number, number>>();
    for (const [f, run] of fields) byField.set(f, runMap(run, keep));
    (index.set as (k: string, v: unknown) => void).call(index, term, byField);
  }
  return loaded;
}
