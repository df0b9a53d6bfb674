/**
 * How much an entry weighs when a session starts (DESIGN §8), read from its fields alone: whether it
 * is core (`core: true` or weight ≥ 9), whether it is an agent's statement no person confirmed, and
 * the newest-first order packs list entries in. The context pack selects with these, and the entry
 * table's in-force heads (heads.ts) keep the candidates by the same tests, so both agree.
 */
import { getField, type Entry } from './model.js';
import { confidenceOf } from './precedence.js';
import type { EntryRecord } from './store.js';

const field = (r: EntryRecord, name: string) => (getField(r.entry, name) ?? '').trim().toLowerCase();

const dateOfEntry = (r: EntryRecord) => getField(r.entry, 'date') ?? '';
const weightOf = (r: EntryRecord) => Number(getField(r.entry, 'weight') ?? 0) || 0;

export function isCore(r: EntryRecord): boolean {
  return field(r, 'core') === 'true' || weightOf(r) >= 9;
}

/**
 * An agent's statement that no person confirmed: `origin: agent` without a `confirmed:` field.
 * microsync writes one naming the user's reply that confirmed it in the transcript (an agent's
 * statement lands only so), `mem confirm <id>` one with the day, and an entry edited to
 * `origin: manual` is a person's own. What an agent wrote itself (MCP `memory_remember`) has none:
 * compound never promotes it and the pack's layer 0 never holds it.
 */
export function unconfirmedAgent(r: EntryRecord): boolean {
  return unconfirmedEntry(r.entry);
}

/** unconfirmedAgent for a parsed entry that is not a record (a writer's block). */
export function unconfirmedEntry(e: Entry): boolean {
  return (getField(e, 'origin') ?? '').trim().toLowerCase() === 'agent' && !(getField(e, 'confirmed') ?? '').trim();
}

/** Newest first: date, then confidence, then id, so the same files always give the same pack. */
export const newestFirst = (a: EntryRecord, b: EntryRecord) =>
  dateOfEntry(b).localeCompare(dateOfEntry(a)) || confidenceOf(b) - confidenceOf(a) || a.id.localeCompare(b.id);

/** Heaviest first, then newest: the order core entries are offered the pack. */
export const heaviestFirst = (a: EntryRecord, b: EntryRecord) => weightOf(b) - weightOf(a) || newestFirst(a, b);
