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
import { buildHeads, groupKeyOf, scopeKeyOf, type HeadRow, type Heads, type Walked } from './heads.js';
import { MIXED, type IdInfo, type ScopeRows } from './heads-model.js';
import { ANY_KEY, followCited } from './heads-cited.js';
import { statusOf } from './lifecycle.js';
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

/** Per id, its rows in `records` with their scopes, as text: an id whose text is the same before and after changed nothing. */
function rowsById(records: EntryRecord[]): Map<string, string> {
  const out = new Map<string, unknown[]>();
  for (const r of records)
    if (r.id) (out.get(r.id) ?? out.set(r.id, []).get(r.id)!).push([r.file, scopeKeyOf(r), rowOf(r)]);
  return new Map([...out].map(([id, rows]) => [id, JSON.stringify(rows)]));
}

/** Per scope, its first rows of each id in `records`, as text. */
function rowsByScope(records: EntryRecord[]): Map<string, string> {
  const out = new Map<string, unknown[]>();
  const seen = new Set<string>();
  for (const r of records) {
    if (!r.id || seen.has(r.id)) continue;
    seen.add(r.id);
    (out.get(scopeKeyOf(r)) ?? out.set(scopeKeyOf(r), []).get(scopeKeyOf(r))!).push([r.file, rowOf(r)]);
  }
  return new Map([...out].map(([scope, rows]) => [scope, JSON.stringify(rows)]));
}

export function planDelta(delta: Delta, stored: Stored): HeadsUpdate | undefined {
  const { changed, before, after } = delta;
  const was = scopesById(before.scoped);
  const now = scopesById(after.scoped);
  const [textWas, textNow] = [rowsById(before.scoped), rowsById(after.scoped)];
  // The ids whose entries changed (added, removed, moved, restated): an entry the same before and after changes nothing.
  const changedIds = new Set(
    [...textWas.keys(), ...textNow.keys()].filter((id) => textWas.get(id) !== textNow.get(id)),
  );
  for (const id of changedIds) {
    const info = stored.idInfo(id);
    if (info?.files.some((f) => !changed.has(f))) return undefined;
    if ((now.get(id)?.size ?? 0) > 1) return undefined;
  }
  // The scopes an id is in, before and after (ids not in the changed files as the index holds them).
  const scopesOf = (id: string): string[] =>
    was.has(id) || now.has(id)
      ? [...(was.get(id) ?? []), ...(now.get(id) ?? [])]
      : ((s) => (s === undefined ? [] : [s]))(stored.idInfo(id)?.scope);
  // An id that stays, in one scope: what replaces it from another scope (its `ext`) stays as it was.
  const stays = (id: string) => {
    const [w, n] = [was.get(id), now.get(id)];
    return !changedIds.has(id) || (!!w && !!n && w.size === 1 && n.size === 1 && [...w][0] === [...n][0]);
  };
  // An entry's links as InForce reads them (its first row): the same before and after, it replaces the same ids.
  const sig = (list: EntryRecord[]) => {
    const out = new Map<string, string>();
    for (const r of list)
      if (r.id && !out.has(r.id)) out.set(r.id, JSON.stringify([statusOf(r), scopeKeyOf(r), linksOf(r).older]));
    return out;
  };
  const [sigWas, sigNow] = [sig(before.scoped), sig(after.scoped)];
  const named = new Set<string>();
  for (const r of [...before.scoped, ...after.scoped])
    for (const old of changedIds.has(r.id) ? linksOf(r).older : []) {
      if (old === r.id) continue;
      named.add(old);
      const across = scopesOf(old).some((s) => s !== scopeKeyOf(r));
      if (across && !(sigWas.get(r.id) === sigNow.get(r.id) && stays(r.id) && stays(old))) return undefined;
    }
  for (const id of changedIds)
    for (const [namer, file] of stored.namers(id)) {
      const all = new Set([...scopesOf(namer), ...scopesOf(id)]);
      if (!changed.has(file) && (all.size > 1 || all.has(MIXED)) && !stays(id)) return undefined;
    }

  // The scopes whose rows changed: their rows and heads are made again; the others' stay as they are.
  const [scopesWas, scopesNow] = [rowsByScope(before.scoped), rowsByScope(after.scoped)];
  // (Unscoped entries too, for the cited chains: a shared key replaces among them.)
  const rowsChanged = new Set(
    [...scopesWas.keys(), ...scopesNow.keys()].filter((s) => scopesWas.get(s) !== scopesNow.get(s)),
  );
  const affected = new Set([...rowsChanged].filter(Boolean));
  const scopes: HeadsUpdate['scopes'] = new Map();
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
    scopes.set(scope, { rows, ext, heads: buildHeads(records, [], ext).scopes[scope] });
  }
  const ids: HeadsUpdate['ids'] = new Map();
  for (const id of changedIds) {
    const files = [...new Set(after.scoped.filter((r) => r.id === id).map((r) => r.file))];
    ids.set(id, files.length ? { files, scope: [...now.get(id)!][0]! } : undefined);
  }

  // The link lists a changed entry is or was in: the changed files' part of each made again from every entry after.
  const newer = new Map<string, Held[]>();
  const keys = new Map<string, Held[]>();
  for (const r of [...before.raw, ...after.raw]) {
    if (!changedIds.has(r.id)) continue;
    const { older, key } = linksOf(r);
    for (const old of older)
      if (!newer.has(old))
        newer.set(
          old,
          stored.namers(old).filter(([, f]) => !changed.has(f)),
        );
    if (key && !keys.has(key))
      keys.set(
        key,
        stored.keyList(key).filter(([, f]) => !changed.has(f)),
      );
  }
  for (const r of after.raw) {
    if (!r.id) continue;
    const { older, key } = linksOf(r);
    for (const old of older) newer.get(old)?.push([r.id, r.file]);
    if (key) keys.get(key)?.push([r.id, r.file]);
  }
  for (const m of [newer, keys]) for (const list of m.values()) byFile(list, (h) => h[1]);
  // The keys changed entries hold or held, and those of the entries they name (found in their scope's rows).
  function keysTouched(): Set<string> {
    const out = new Set<string>();
    for (const r of [...before.scoped, ...after.scoped]) if (changedIds.has(r.id)) out.add(groupKeyOf(r));
    const rowsByScope = new Map<string, Map<string, string>>();
    for (const x of named)
      for (const scope of scopesOf(x)) {
        if (!rowsByScope.has(scope)) {
          const { rows } = scopes.get(scope) ?? (scope && scope !== MIXED ? stored.scopeRows(scope) : { rows: [] });
          rowsByScope.set(scope, new Map(rows.map(([f, row]) => ((r) => [r.id, groupKeyOf(r)])(tableRecord(f, row)))));
        }
        // Not found (unscoped, kept in no scope's rows): any chain may be touched.
        out.add(rowsByScope.get(scope)!.get(x) ?? (scope ? '' : ANY_KEY));
      }
    out.delete('');
    return out;
  }
  const ends = followCited({
    cited: stored.cited,
    walked: stored.walked,
    changedIds,
    named,
    keys: keysTouched(),
    scopeNow: (id) => [...(now.get(id) ?? [])][0],
    rowsOf: (scope) => scopes.get(scope) ?? stored.scopeRows(scope),
    namers: (id) => newer.get(id) ?? stored.namers(id),
    scopesOf,
  });
  if (!ends) return undefined;
  return { scopes, ids, newer, keys, ...ends };
}
