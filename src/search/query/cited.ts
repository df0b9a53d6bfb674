/**
 * Records as a query shows them. A MEMORY.md item: the id of the entry it cites and that entry's current status
 * (DESIGN §6, §8), so a retracted entry's item is hidden and a superseded one's demoted like the
 * entry. The status is joined here, at query time, and never stored on the item: `mem forget`,
 * `mem restore` and compound's flips change the entry's daily file, not MEMORY.md, and the index
 * (and the search-time overlay) re-chunk only changed files, so a stored status would stay stale
 * until the next weekly rewrite of MEMORY.md. The join reads the entry's own chunk through the id
 * field's whole-id term: one short posting and one record per cited id, only for items that are
 * candidates of the query, from the same tier view (dead docs hidden, changed files overlaid).
 *
 * An active entry that a live entry's `supersedes` names is shown superseded: the newer entry is
 * written (`mem remember` with the same key) before compound flips the older one's status, and
 * until then the older one would rank at full weight. The join reads the `sup:<id>` term
 * (build-docs.ts) of the tier being searched, once per entry id.
 */
import type { TierView } from '../index/view.js';
import { fold } from '../text/fold.js';
import type { Segment } from '../index/segment.js';
import { foldText } from '../text/tokenize.js';
import type { DocRecord } from '../text/types.js';

/** Pairs read per segment: an entry's windows (and its copies in other files) are all there is. */
const PAIRS = 16;

/** The live chunk of entry `id` in this view (its first window), or null when none is that entry. */
export function entryDoc(view: TierView, id: string): { doc: number; record: DocRecord } | null {
  const term = foldText(id);
  for (const seg of view.segments) {
    const p = seg.posting(term, PAIRS);
    for (let i = 0; p && i < p.length; i += 2) {
      if (view.isDead(p[i]!)) continue;
      const r = seg.record(p[i]!);
      if (r.entryId === id && !r.cites) return { doc: p[i]!, record: r };
    }
  }
  return null;
}

/** The status of the live chunk of entry `id` in this view, or null when no live chunk is that entry. */
export function entryStatus(view: TierView, id: string): string | null {
  return entryDoc(view, id)?.record.status ?? null;
}

/** The live entry whose `supersedes` names `id` in these segments, or null. */
export function successor(segments: Segment[], isDead: (d: number) => boolean, id: string): string | null {
  for (const seg of segments) {
    const p = seg.posting(`sup:${fold(id)}`, 8);
    for (let i = 0; p && i < p.length; i += 2) if (!isDead(p[i]!)) return seg.record(p[i]!).entryId;
  }
  return null;
}

/**
 * For one query: records as results show them, a MEMORY.md item taking the id and current status of
 * the entry it cites, and an active entry that a live entry supersedes shown superseded. An item
 * whose entry this tier does not hold (deleted by hand, moved to the cold tier) stays as it is, with
 * no id or status: a result names only an entry the index found, so `mem forget --query` never
 * targets an id that is gone.
 */
export function citedEntries(view: TierView): (r: DocRecord) => DocRecord {
  const statuses = new Map<string, string | null>();
  const superseded = new Map<string, boolean>();
  const current = (r: DocRecord): DocRecord => {
    if (!r.entryId || r.status?.toLowerCase() !== 'active') return r;
    let named = superseded.get(r.entryId);
    if (named === undefined)
      superseded.set(r.entryId, (named = successor(view.segments, view.isDead, r.entryId) !== null));
    return named ? { ...r, status: 'superseded' } : r;
  };
  return (r) => {
    if (!r.cites) return current(r);
    let status = statuses.get(r.cites);
    if (status === undefined) statuses.set(r.cites, (status = entryStatus(view, r.cites)));
    return status === null ? r : current({ ...r, entryId: r.cites, status });
  };
}
