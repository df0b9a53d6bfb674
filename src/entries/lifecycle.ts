/**
 * The lifecycle links an entry carries besides `supersedes` (DESIGN §5): `retracts: <id>` (an
 * appended retraction; compound flips the named entry to retracted) and the key a newer entry shares,
 * which replaces only within one scope. Every reader of these links (compound, context, trace) asks
 * here, so a key said in project A never replaces project B's, wherever it is read.
 */
import { getField, idList, supersedesOf } from './model.js';
import { scopeKey } from './scope-key.js';
import type { EntryRecord } from './store.js';

/** An entry's status, lower-cased; an entry without one is active. */
export function statusOf(r: EntryRecord): string {
  return (getField(r.entry, 'status') ?? 'active').trim().toLowerCase();
}

/** The ids an entry's `retracts` names. */
export function retractedIds(r: EntryRecord): string[] {
  return idList(getField(r.entry, 'retracts'));
}

/** What an entry replaces in its chain: what it supersedes and what it retracts. */
export function olderOf(r: EntryRecord): string[] {
  return [...supersedesOf(r.entry), ...retractedIds(r)];
}

/** The key an entry groups under: its scope and its key (an unscoped entry groups with unscoped ones only). */
export function scopedKeyOf(r: EntryRecord, key: string): string {
  return `${scopeKey(getField(r.entry, 'scope') ?? '')}\u0000${key}`;
}
