/**
 * MEMORY.md's cited ids followed again to their ends after an incremental refresh (heads-delta.ts),
 * pure: only the chains the changed entries touch (an entry of the chain changed or named by one
 * that changed, or a key of the chain held or named by one that changed: a key group's winner may
 * change), each walked over the rows of the scopes it may pass, grown until every entry that names
 * an entry of the walk is among them.
 *
 * Invariant: a chain is walked over whole scopes, in file order, with every scope holding an entry
 * that names one it passes, so InForce decides each step as over every entry; a chain through an
 * unscoped entry or an id of two scopes is not followed here (undefined: the caller rebuilds whole).
 */
import { groupKeyOf, scopeKeyOf, type HeadRow, type Heads, type Walked } from './heads.js';
import { MIXED, type ScopeRows } from './heads-model.js';
import { InForce } from './in-force.js';
import type { Held } from './links-index.js';
import { rowOf, tableRecord } from './table.js';

export interface CitedChange {
  cited: Heads['cited'];
  walked: Walked;
  /** Ids whose entries changed, and those they name. */
  changedIds: Set<string>;
  named: Set<string>;
  /** The keys (as scoped) of the changed entries and of the entries they name. */
  keys: Set<string>;
  /** An id's scope now when it changed, undefined when no entry holds it any more. */
  scopeNow(id: string): string | undefined;
  /** A scope's rows as they are now. */
  rowsOf(scope: string): ScopeRows;
  /** The entries naming `id` now, and the scopes an id is in. */
  namers(id: string): Held[];
  scopesOf(id: string): string[];
}

const MAX_ROUNDS = 8;
/** In `keys`: a named entry's key is not known, so every chain is followed again. */
export const ANY_KEY = '\u0001';

export function followCited(c: CitedChange): (Pick<Heads, 'cited'> & { walked: Walked }) | undefined {
  const cited = { ...c.cited };
  const walked = { ...c.walked };
  const made = new Map<string, InForce>();
  const inForceOf = (scopes: Set<string>) => {
    const key = [...scopes].sort().join('\u0000');
    if (!made.has(key)) {
      const parts = [...scopes].map((s) => c.rowsOf(s));
      const rows: HeadRow[] = parts.flatMap((p) => p.rows);
      if (parts.length > 1) rows.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1][2] - b[1][2]));
      made.set(
        key,
        new InForce(
          rows.map(([f, row]) => tableRecord(f, row)),
          parts.flatMap((p) => p.ext),
        ),
      );
    }
    return made.get(key)!;
  };
  for (const id of Object.keys(c.cited)) {
    const [seenIds, seenScopes, seenKeys] = c.walked[id] ?? [[], [], []];
    const touched =
      c.changedIds.has(id) ||
      seenIds.some((x) => c.changedIds.has(x) || c.named.has(x)) ||
      !Array.isArray(seenKeys) ||
      c.keys.has(ANY_KEY) ||
      seenKeys.some((k) => k && c.keys.has(k));
    if (!touched) continue;
    const start = c.changedIds.has(id) ? c.scopeNow(id) : seenScopes[0];
    if (start === undefined) {
      // No entry holds it any more.
      [cited[id], walked[id]] = [null, [[], [], []]];
      continue;
    }
    const scopes = new Set([start, ...seenScopes]);
    let done = false;
    for (let round = 0; round < MAX_ROUNDS && !done; round++) {
      if (scopes.has('') || scopes.has(MIXED)) return undefined;
      const { end, seen } = inForceOf(scopes).walk(id);
      const need = seen.flatMap((r) => [scopeKeyOf(r), ...c.namers(r.id).flatMap(([n]) => c.scopesOf(n))]);
      done = need.every((s) => scopes.has(s));
      need.forEach((s) => scopes.add(s));
      if (!done) continue;
      cited[id] = end ? [end.file, rowOf(end)] : null;
      walked[id] = [seen.map((r) => r.id), seen.map(scopeKeyOf), seen.map(groupKeyOf)];
    }
    if (!done) return undefined;
  }
  return { cited, walked };
}
