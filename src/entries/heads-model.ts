/**
 * Everything `.mem/entries/heads/` holds, built from every entry, pure (heads-store.ts writes it):
 * the in-force heads of each scope and MEMORY.md's cited ids followed to their ends (heads.ts), the
 * id index (each id's files and scope), the chain links (links-index.ts) and, for the incremental
 * refresh (heads-delta.ts), each scope's rows and the ids of it an entry of another scope replaces.
 *
 * Invariant: a scope's rows are its entries InForce keeps (the first of each id, in file order), and
 * its `ext` the ids among them an active entry of another scope (or none) supersedes or retracts, so
 * buildHeads over those rows with `ext` replaced elsewhere gives the scope's heads exactly as over
 * every entry (test/heads-incremental.test.ts compares them).
 */
import { append } from '../core/group.js';
import { buildHeads, scopeKeyOf, type HeadRow, type Heads, type Walked } from './heads.js';
import { olderOf, statusOf } from './lifecycle.js';
import { chainLinks, type LinkLists } from './links-index.js';
import type { EntryRecord } from './store.js';
import { rowOf } from './table.js';

/** The scope of an id whose entries lie in more than one scope (an incremental refresh touching it rebuilds whole). */
export const MIXED = '\u0000';

export interface IdInfo {
  /** The files holding the id, in file order. */
  files: string[];
  /** The scope key of its entries (`''` unscoped, MIXED when they differ). */
  scope: string;
}

export interface ScopeRows {
  rows: HeadRow[];
  ext: string[];
}

export interface HeadsModel extends Heads {
  walked: Walked;
  rows: Map<string, ScopeRows>;
  ids: Map<string, IdInfo>;
  links: LinkLists;
}

/** `raw`: every entry as written, in file order; `scoped`: the same with an old entry's scope filled in (heads-store.ts withScopes). */
export function buildModel(raw: EntryRecord[], scoped: EntryRecord[], cited: string[]): HeadsModel {
  const built = buildHeads(scoped, cited);
  const ids = new Map<string, IdInfo>();
  const first = new Map<string, EntryRecord>();
  for (const r of scoped) {
    if (!r.id) continue;
    const scope = scopeKeyOf(r);
    const info = ids.get(r.id);
    if (!info) {
      ids.set(r.id, { files: [r.file], scope });
      first.set(r.id, r);
      continue;
    }
    if (info.files.at(-1) !== r.file) info.files.push(r.file);
    if (info.scope !== scope) info.scope = MIXED;
  }
  const byScope = new Map<string, EntryRecord[]>();
  for (const r of first.values()) {
    const scope = scopeKeyOf(r);
    if (scope) append(byScope, scope, r);
  }
  const ext = new Map<string, Set<string>>();
  for (const r of first.values()) {
    if (statusOf(r) !== 'active') continue;
    for (const old of olderOf(r)) {
      const target = first.get(old);
      const scope = target && scopeKeyOf(target);
      if (old !== r.id && scope && scope !== scopeKeyOf(r))
        (ext.get(scope) ?? ext.set(scope, new Set()).get(scope)!).add(old);
    }
  }
  const rows = new Map<string, ScopeRows>();
  for (const [scope, list] of byScope)
    rows.set(scope, { rows: list.map((r): HeadRow => [r.file, rowOf(r)]), ext: [...(ext.get(scope) ?? [])].sort() });
  return { ...built, rows, ids, links: chainLinks(raw) };
}
