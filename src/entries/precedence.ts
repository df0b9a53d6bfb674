/**
 * Which of several active entries with one `key` is current (DESIGN §5): the newest (its `date`, else
 * the date in its daily file's name), then the higher confidence, then the later id. compound flips
 * the others to superseded (jobs/compound/conflicts.ts); until it runs, context packs already treat
 * them as replaced (pack/select.ts), so both always agree on the winner.
 */
import { getField } from './model.js';
import type { EntryRecord } from './store.js';

export const dateOf = (r: EntryRecord) => getField(r.entry, 'date') ?? /(\d{4}-\d{2}-\d{2})/.exec(r.file)?.[1] ?? '';
export const confidenceOf = (r: EntryRecord) => Number(getField(r.entry, 'confidence') ?? 0) || 0;

/** Sort order that puts the current entry of a key first. */
export function currentFirst(a: EntryRecord, b: EntryRecord): number {
  return dateOf(b).localeCompare(dateOf(a)) || confidenceOf(b) - confidenceOf(a) || b.id.localeCompare(a.id);
}
