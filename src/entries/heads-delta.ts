/**
 * The incremental refresh of the heads (heads-store.ts), pure: from the entries of the changed files
 * before and after, and what the heads held, the scopes whose rows and heads change, the ids and
 * chain links that change, and MEMORY.md's cited ids followed again where their chains were touched.
 *
 * Invariant: the answer equals what buildModel (heads-model.ts) gives from every entry, or is
 * undefined (the caller rebuilds whole). It is undefined whenever a change reaches past one scope:
 * an id of a changed entry also held by an unchanged file or by entries of two scopes, a supersedes
 * or retracts link between two scopes (or an unscoped entry and a scoped one), a cited chain that
 * crossed scopes or passes an unscoped entry or an id replaced from another scope. Within one scope,
 * InForce over the scope's rows (and its ids replaced from outside, `ext`) decides as over all entries.
 */
import { buildHeads, scopeKeyOf, type HeadRow, type Heads, type Walked } from './heads.js';
import { MIXED, type IdInfo, type ScopeRows } from './heads-model.js';
import { InForce } from './in-force.js';
import { linksOf, type Held } from './links-index.js';
import type { EntryRecord } from './store.js';
import { rowOf, tableRecord } from './table.js';

export interface Delta {
  changed: Set<string>;
  /** The changed files' entries before and after, as written (`raw`) and with scopes filled in (`scoped`), in file order. */
  before: { raw: EntryRecord[]; scoped: EntryRecord[] };
  after: { raw: EntryRecord[]; scoped: EntryRecord[] };
}

/** What the heads held before (read lazily; a lookup may throw when a file is damaged: the caller rebuilds whole). */
export interface Stored {
  idInfo(id: string): IdInfo | undefined;
  namers(id: string): Held[];
  keyList(scopedKey: string): Held[];
  scopeRows(scope: string): ScopeRows;
  cited: Heads['cited'];
  walked: Walked;
}

export interface HeadsUpdate {
  /** Every scope whose rows changed: its rows, ext and heads (undefined: no heads). */
  scopes: Map<string, ScopeRows & { heads: HeadRow[] | undefined }>;
  /** Ids whose files changed (undefined: no entry holds it now). */
  ids: Map<string, IdInfo | undefined>;
  newer: Map<string, Held[]>;
  keys: Map<string, Held[]>;
  cited: Heads['cited'];
  walked: Walked;
}

const byFile = <T>(list: T[], fileOf: (x: T) => string) =>
  list.sort((a, b) => (fileOf(a) < fileOf(b) ? -1 : fileOf(a) > fileOf(b) ? 1 : 0));

/** Ids to the scopes of their entries in `records`. */
function scopesById(records: EntryRecord[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const r of records) if (r.id) (out.get(r.id) ?? out.set(r.id, new Set()).get(r.id)!).add(scopeKeyOf(r));
  return out;
}

export function planDelta(delta: Delta, stored: Stored): HeadsUpdate | undefined {
  const { changed, before, after } = delta;
  const was = scopesById(before.scoped);
  const now = scopesById(after.scoped);
  const touchedIds = new Set([...was.keys(), ...now.keys()]);
  for (const id of touchedIds) {
    const info = stored.idInfo(id);
    if (info?.files.some((f) => !changed.has(f))) return undefined;
    if ((now.get(id)?.size ?? 0) > 1) return undefined;
  }
  // The scopes an id is in, before and after (unchanged ids as the index holds them).
  const scopesOf = (id: string): string[] =>
    touchedIds.has(id)
      ? [...(was.get(id) ?? []), ...(now.get(id) ?? [])]
      : ((s) => (s === undefined ? [] : [s]))(stored.idInfo(id)?.scope);
  const named = new Set<string>();
  for (const r of [...before.scoped, ...after.scoped])
    for (const old of linksOf(r).older) {
      if (old === r.id) continue;
      named.add(old);
      if (scopesOf(old).some((s) => s !== scopeKeyOf(r))) return undefined;
    }
  for (const id of touchedIds)
    for (const [namer, file] of stored.namers(id)) {
      const all = new Set([...scopesOf(namer), ...scopesOf(id)]);
      if (!changed.has(file) && (all.size > 1 || all.has(MIXED))) return undefined;
    }

  const affected = new Set([...was.values(), ...now.values()].flatMap((s) => [...s]).filter(Boolean));
  const scopes: HeadsUpdate['scopes'] = new Map();
  const inForce = new Map<string, InForce>();
  for (const scope of affected) {
    const old = stored.scopeRows(scope);
    const kept = old.rows.filter(([f]) => !changed.has(f));
    const seen = new Set<string>();
    for (const r of after.scoped)
      if (r.id && !seen.has(r.id) && (seen.add(r.id), scopeKeyOf(r) === scope)) kept.push([r.file, rowOf(r)]);
    const rows = byFile(kept, (h) => h[0]);
    const records = rows.map(([f, row]) => tableRecord(f, row));
    const ids = new Set(records.map((r) => r.id));
    const ext = old.ext.filter((id) => ids.has(id));
    inForce.set(scope, new InForce(records, ext));
    scopes.set(scope, { rows, ext, heads: buildHeads(records, [], ext).scopes[scope] });
  }

  const cited = { ...stored.cited };
  const walked = { ...stored.walked };
  for (const id of Object.keys(stored.cited)) {
    const [seenIds, seenScopes] = stored.walked[id] ?? [[], []];
    const touched =
      touchedIds.has(id) ||
      seenIds.some((x) => touchedIds.has(x) || named.has(x)) ||
      seenScopes.some((s) => affected.has(s));
    if (!touched) continue;
    const scope = touchedIds.has(id) ? [...(now.get(id) ?? [])][0] : seenScopes[0];
    if (scope === undefined) {
      // No entry holds it any more.
      [cited[id], walked[id]] = [null, [[], []]];
      continue;
    }
    const f = inForce.get(scope);
    if (!scope || !f || seenScopes.some((s) => s !== scope)) return undefined;
    const { end, seen } = f.walk(id);
    if (seen.some((r) => f.replacedElsewhere(r.id))) return undefined;
    cited[id] = end ? [end.file, rowOf(end)] : null;
    walked[id] = [seen.map((r) => r.id), seen.map(() => scope)];
  }

  const ids: HeadsUpdate['ids'] = new Map();
  for (const id of touchedIds) {
    const files = [...new Set(after.scoped.filter((r) => r.id === id).map((r) => r.file))];
    ids.set(id, files.length ? { files, scope: [...now.get(id)!][0]! } : undefined);
  }

  const newer = new Map<string, Held[]>();
  const keys = new Map<string, Held[]>();
  const touch = (m: Map<string, Held[]>, k: string, old: (k: string) => Held[]) => {
    if (!m.has(k))
      m.set(
        k,
        old(k).filter(([, f]) => !changed.has(f)),
      );
  };
  for (const r of before.raw) {
    const { older, key } = linksOf(r);
    if (!r.id) continue;
    for (const old of older) touch(newer, old, stored.namers);
    if (key) touch(keys, key, stored.keyList);
  }
  for (const r of after.raw) {
    const { older, key } = linksOf(r);
    if (!r.id) continue;
    for (const old of older) (touch(newer, old, stored.namers), newer.get(old)!.push([r.id, r.file]));
    if (key) (touch(keys, key, stored.keyList), keys.get(key)!.push([r.id, r.file]));
  }
  for (const m of [newer, keys]) for (const list of m.values()) byFile(list, (h) => h[1]);
  return { scopes, ids, newer, keys, cited, walked };
}
