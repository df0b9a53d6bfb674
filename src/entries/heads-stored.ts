/**
 * The heads as the last refresh left them, read for an incremental refresh (heads-refresh.ts): the
 * id buckets, link buckets and scope rows the delta asks for (heads-delta.ts Stored), each read once
 * and kept, so every read happens before the refresh writes anything.
 *
 * Invariant: a file is taken only with the generation the old meta names; one the meta names that
 * is missing or damaged throws, and the refresh rebuilds whole instead of updating from it.
 */
import type { Walked, HeadRow } from './heads.js';
import type { IdInfo, ScopeRows } from './heads-model.js';
import { readGenFile } from './stamped-buckets.js';
import { idBucketFile, idBucketOf, idsOf, rowsFile, type CurrentHeads } from './heads-store.js';
import { linkBucketOf, linksFile, readLinkBucket, type LinkLists } from './links-index.js';

export const CHAINS = 'chains.json';

export function storedOf(dir: string, meta: CurrentHeads) {
  const idBuckets = new Map<number, ReturnType<typeof idsOf>>();
  const linkBuckets = new Map<number, LinkLists>();
  const rows = new Map<string, ScopeRows>();
  const gen = (name: string) => meta.gens[name];
  const ids = (b: number) => {
    if (!idBuckets.has(b)) {
      const v = gen(idBucketFile(b)) ? readGenFile(dir, idBucketFile(b), gen(idBucketFile(b))!) : undefined;
      if (meta.idBuckets.includes(b) && !(v && idsOf(v))) throw new Error(`${idBucketFile(b)} is damaged`);
      idBuckets.set(b, v ? idsOf(v) : { ids: {}, scopes: {} });
    }
    return idBuckets.get(b)!;
  };
  const links = (b: number) => {
    if (!linkBuckets.has(b)) {
      const got = gen(linksFile(b)) ? readLinkBucket(dir, b, gen(linksFile(b))) : undefined;
      if (gen(linksFile(b)) && !got) throw new Error(`${linksFile(b)} is damaged`);
      linkBuckets.set(b, got ?? { newer: new Map(), keys: new Map() });
    }
    return linkBuckets.get(b)!;
  };
  const walkedFile = gen(CHAINS) ? readGenFile(dir, CHAINS, gen(CHAINS)!) : undefined;
  if (!walkedFile || !walkedFile.walked || typeof walkedFile.walked !== 'object') throw new Error('no chains');
  return {
    idBuckets,
    linkBuckets,
    rowsRead: rows,
    cited: meta.cited,
    walked: walkedFile.walked as Walked,
    idInfo(id: string): IdInfo | undefined {
      const b = ids(idBucketOf(id));
      return Object.hasOwn(b!.ids, id) ? { files: b!.ids[id]!, scope: b!.scopes[id] ?? '' } : undefined;
    },
    namers: (id: string) => links(linkBucketOf(id)).newer.get(id) ?? [],
    keyList: (k: string) => links(linkBucketOf(k)).keys.get(k) ?? [],
    scopeRows(scope: string): ScopeRows {
      if (!rows.has(scope)) {
        const name = rowsFile(scope);
        const v = meta.rowScopes.includes(scope) ? readGenFile(dir, name, meta.gens[name] ?? '') : undefined;
        if (meta.rowScopes.includes(scope) && !(v && Array.isArray(v.rows) && Array.isArray(v.ext)))
          throw new Error(`${name} is damaged`);
        rows.set(scope, v ? { rows: v.rows as HeadRow[], ext: v.ext as string[] } : { rows: [], ext: [] });
      }
      return rows.get(scope)!;
    },
  };
}

export type Stored = ReturnType<typeof storedOf>;
