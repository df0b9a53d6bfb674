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
import { readGenFile } from './stamped-buckets.js';
import type { GenFiles } from './gen-write.js';
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
  passesGate: (name: string) => boolean;
}

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
  for (const [scope, { rows, ext, heads }] of update.scopes) {
    if (rows.length) (files.put(rowsFile(scope), { rows, ext }), rowScopes.add(scope));
    else (files.drop(rowsFile(scope)), rowScopes.delete(scope));
    if (heads) {
      files.put(scopeFile(scope), { rows: heads });
      scopes.add(scope);
    } else {
      files.drop(scopeFile(scope));
      scopes.delete(scope);
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
  return finish(dir, files, base, meta, {
    scopes: [...scopes].sort(),
    rowScopes: [...rowScopes].sort(),
    cited: update.cited,
    walked: update.walked,
    idBuckets: [...idBuckets].sort((x, y) => x - y),
  });
}

export function writeModel(dir: string, files: GenFiles, model: HeadsModel, base: Base): CurrentHeads {
  for (const [scope, rows] of Object.entries(model.scopes)) {
    files.put(scopeFile(scope), { rows });
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
  return finish(dir, files, base, undefined, {
    scopes: Object.keys(model.scopes).sort(),
    rowScopes: [...model.rows.keys()].sort(),
    cited: model.cited,
    walked: model.walked,
    idBuckets,
  });
}

function finish(
  dir: string,
  files: GenFiles,
  base: Base,
  before: CurrentHeads | undefined,
  got: Pick<CurrentHeads, 'scopes' | 'rowScopes' | 'cited' | 'idBuckets'> & { walked: Walked },
): CurrentHeads {
  const { walked, ...rest } = got;
  files.put(CHAINS, { walked });
  if (!before) files.prune([META]);
  // A folder named as one of these gets its scope without the secret scan (a tenth of a `mem context`);
  // a scope the heads held before keeps the gate's answer (the same version's: heads-refresh.ts).
  const old = new Set(before?.scopes);
  const was = new Set(before?.passed);
  const passes = (name: string) => (old.has(PROJECT + name) ? was.has(name) : base.passesGate(name));
  const passed = got.scopes.flatMap((s) =>
    s.startsWith(PROJECT) && passes(s.slice(PROJECT.length)) ? [s.slice(PROJECT.length)] : [],
  );
  const made: CurrentHeads = {
    layout: LAYOUT,
    digest: base.digest,
    filesDigest: base.filesDigest,
    mappingKey: base.mappingKey,
    ...rest,
    gens: files.gens,
    passed,
    gateVersion: VERSION,
  };
  writeDerivedFile(path.join(dir, META), JSON.stringify(made));
  return made;
}
