/**
 * Writing `.mem/entries/heads/` (heads-refresh.ts decides what): the whole model of every entry
 * (heads-model.ts), or an incremental update laid over the files the last refresh left
 * (heads-delta.ts), each file through GenFiles, so only the files whose content changed are written.
 *
 * Invariant: the meta goes last and names every file's generation; a whole write removes every file
 * it does not name, an update every file whose scope or bucket it emptied.
 */
import path from 'node:path';
import { VERSION } from '../core/version.js';
import { writeDerivedFile } from '../write/atomic.js';
import { readGenFile, type GenFiles } from './gen-files.js';
import type { HeadsUpdate } from './heads-delta.js';
import { stampOfTexts } from './heads-hash.js';
import type { HeadsModel } from './heads-model.js';
import type { HeadRow, Walked } from './heads.js';
import {
  idBucketFile,
  idBucketOf,
  ID_BUCKETS,
  LAYOUT,
  META,
  rowsFile,
  scopeFile,
  type CurrentHeads,
} from './heads-store.js';
import { CHAINS, type Stored } from './heads-stored.js';
import { linkBucketOf, writeLinks, LIST, type LinkLists } from './links-index.js';

const PROJECT = 'project:';

export interface Base {
  digest: string;
  filesDigest: string;
  mappingKey: string;
  stamps: Map<string, string>;
  passesGate: (name: string) => boolean;
}

/** A stamp of the files `rows` are in, as they are now: what a ready pack of them depends on beyond the rows. */
const fstampOf = (rows: HeadRow[], stamps: Map<string, string>) =>
  stampOfTexts(...[...new Set(rows.map((r) => r[0]))].flatMap((f) => [f, stamps.get(f) ?? ''])).slice(0, 16);

/** The old heads, read as the delta asks and kept for the writes (each file read once, every read before any write). */
const idPayload = (ids: Record<string, string[]>, scopes: Record<string, string>) => {
  const keys = Object.keys(ids).sort();
  return {
    ids: Object.fromEntries(keys.map((k) => [k, ids[k]!])),
    scopes: Object.fromEntries(keys.map((k) => [k, scopes[k]!])),
  };
};

export function writeUpdate(
  dir: string,
  files: GenFiles,
  meta: CurrentHeads,
  update: HeadsUpdate,
  stored: Stored,
  base: Base,
): CurrentHeads {
  const scopes = new Set(meta.scopes);
  const rowScopes = new Set(meta.rowScopes);
  const fstamps = { ...meta.fstamps };
  for (const [scope, { rows, ext, heads }] of update.scopes) {
    if (rows.length) (files.put(rowsFile(scope), { rows, ext }), rowScopes.add(scope));
    else (files.drop(rowsFile(scope)), rowScopes.delete(scope));
    if (heads) {
      files.put(scopeFile(scope), { rows: heads });
      scopes.add(scope);
      fstamps[scope] = fstampOf(heads, base.stamps);
    } else {
      files.drop(scopeFile(scope));
      scopes.delete(scope);
      delete fstamps[scope];
    }
  }
  const idBuckets = new Set(meta.idBuckets);
  const touched = new Set([...update.ids.keys()].map(idBucketOf));
  for (const b of touched) {
    const { ids, scopes: of } = stored.idBuckets.get(b)!;
    const next = { ...ids };
    const nextScopes = { ...of };
    for (const [id, info] of update.ids) {
      if (idBucketOf(id) !== b) continue;
      if (info) [next[id], nextScopes[id]] = [info.files, info.scope];
      else (delete next[id], delete nextScopes[id]);
    }
    if (Object.keys(next).length) (files.put(idBucketFile(b), idPayload(next, nextScopes)), idBuckets.add(b));
    else (files.drop(idBucketFile(b)), idBuckets.delete(b));
  }
  const lists: LinkLists = { newer: new Map(), keys: new Map() };
  const linkTouched = new Set([...update.newer.keys(), ...update.keys.keys()].map(linkBucketOf));
  for (const b of linkTouched) {
    const had = stored.linkBuckets.get(b)!;
    for (const [k, v] of had.newer) lists.newer.set(k, v);
    for (const [k, v] of had.keys) lists.keys.set(k, v);
  }
  for (const [k, v] of update.newer) lists.newer.set(k, v);
  for (const [k, v] of update.keys) lists.keys.set(k, v);
  const listed = readGenFile(dir, LIST, meta.gens[LIST] ?? '')?.held;
  writeLinks(files, lists, Array.isArray(listed) ? (listed as number[]) : [], linkTouched);
  return finish(dir, files, base, false, {
    scopes: [...scopes].sort(),
    rowScopes: [...rowScopes].sort(),
    cited: update.cited,
    walked: update.walked,
    fstamps,
    idBuckets: [...idBuckets].sort((x, y) => x - y),
  });
}

export function writeModel(dir: string, files: GenFiles, model: HeadsModel, base: Base): CurrentHeads {
  const fstamps: Record<string, string> = {};
  for (const [scope, rows] of Object.entries(model.scopes)) {
    files.put(scopeFile(scope), { rows });
    fstamps[scope] = fstampOf(rows, base.stamps);
  }
  for (const [scope, { rows, ext }] of model.rows) files.put(rowsFile(scope), { rows, ext });
  const buckets = Array.from(
    { length: ID_BUCKETS },
    () => [{}, {}] as [Record<string, string[]>, Record<string, string>],
  );
  for (const [id, { files: at, scope }] of model.ids) {
    const b = buckets[idBucketOf(id)]!;
    [b[0][id], b[1][id]] = [at, scope];
  }
  const idBuckets = buckets.flatMap(([ids], b) => (Object.keys(ids).length ? [b] : []));
  for (const b of idBuckets) files.put(idBucketFile(b), idPayload(...buckets[b]!));
  writeLinks(files, model.links, []);
  return finish(dir, files, base, true, {
    scopes: Object.keys(model.scopes).sort(),
    rowScopes: [...model.rows.keys()].sort(),
    cited: model.cited,
    walked: model.walked,
    fstamps,
    idBuckets,
  });
}

function finish(
  dir: string,
  files: GenFiles,
  base: Base,
  prune: boolean,
  got: Pick<CurrentHeads, 'scopes' | 'rowScopes' | 'cited' | 'fstamps' | 'idBuckets'> & { walked: Walked },
): CurrentHeads {
  const { walked, ...rest } = got;
  files.put(CHAINS, { walked });
  if (prune) files.prune([META]);
  const citedRows = Object.values(got.cited).filter((r): r is HeadRow => !!r);
  // A folder named as one of these gets its scope without the secret scan (a tenth of a `mem context`).
  const passed = got.scopes.flatMap((s) =>
    s.startsWith(PROJECT) && base.passesGate(s.slice(PROJECT.length)) ? [s.slice(PROJECT.length)] : [],
  );
  const made: CurrentHeads = {
    layout: LAYOUT,
    digest: base.digest,
    filesDigest: base.filesDigest,
    mappingKey: base.mappingKey,
    ...rest,
    fstamps: { ...rest.fstamps, '\u0000cited': fstampOf(citedRows, base.stamps) },
    gens: files.gens,
    passed,
    gateVersion: VERSION,
  };
  writeDerivedFile(path.join(dir, META), JSON.stringify(made));
  return made;
}
