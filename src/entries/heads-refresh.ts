/**
 * Bringing `.mem/entries/heads/` (heads-store.ts) up to date, called by the entry table's refresh
 * (table-refresh.ts) with the entries of the files it just changed. When the heads were built from
 * the table as it was before those files changed, under the same scope mapping and MEMORY.md's
 * ids, only what the changed entries touch is recomputed (heads-delta.ts: the rows and heads of
 * their scopes, their ids' buckets, the link lists they are in, the cited chains they touch);
 * otherwise every row is read and everything rebuilt (heads-model.ts). Either way a file is
 * rewritten only when its content changed (gen-write.ts).
 *
 * Invariant: the meta file goes first and last: a reader finds either no meta, or the meta and the
 * files of the generations it names. A whole rebuild writes heads only from rows whose stamps match
 * the files listed now, so heads built while a person saved a file are not written at all; an update
 * is stamped with the files as the table read them, so a file saved since makes its digest differ
 * from memory/ and reads go to the whole table until the next refresh.
 */
import fs from 'node:fs';
import path from 'node:path';
import { VERSION } from '../core/version.js';
import { GenFiles } from './gen-write.js';
import { planDelta, type Delta, type HeadsUpdate } from './heads-delta.js';
import { filesDigestOf, statedMemoryFiles, type StatedMemoryFile } from './heads-files.js';
import { buildModel } from './heads-model.js';
import { DIR, digestOf, META, readMeta, withScopes, type CurrentHeads, type ScopeOf } from './heads-store.js';
import { storedOf, type Stored } from './heads-stored.js';
import { writeModel, writeUpdate } from './heads-write.js';
import { linkedIds } from './id.js';
import type { EntryRecord } from './store.js';

export interface TableDelta {
  changed: Set<string>;
  /** The changed files' entries (as the table's rows give them) before and after, in file order. */
  before: EntryRecord[];
  after: EntryRecord[];
  /** The files' digest of the table before (what the heads must have been built from) and after. */
  beforeDigest: string;
  afterDigest: string;
}

export interface HeadsOptions {
  scopeOf: ScopeOf;
  mappingKey: string;
  passesGate: (name: string) => boolean;
}

/**
 * Rebuilds what changed of the heads. `recordsAt` gives every entry of the listed files from rows
 * stamped as listed, or undefined when the table is behind a file (the heads are then removed, not
 * rebuilt). Returns the heads as they now are, or undefined when there are none.
 */
export function refreshHeads(
  workspace: string,
  tableDir: string,
  opts: HeadsOptions,
  recordsAt: (files: StatedMemoryFile[]) => EntryRecord[] | undefined,
  delta?: TableDelta,
): CurrentHeads | undefined {
  let memoryText = '';
  try {
    memoryText = fs.readFileSync(path.join(workspace, 'MEMORY.md'), 'utf8');
  } catch {
    // No MEMORY.md: nothing cited.
  }
  const cited = [...new Set(linkedIds(memoryText))];
  const dir = path.join(workspace, tableDir, DIR);
  const meta = readMeta(dir);
  const known = !!meta && cited.every((id) => Object.hasOwn(meta.cited, id));
  const base = (filesDigest: string) => ({
    digest: digestOf(filesDigest, opts.mappingKey),
    filesDigest,
    mappingKey: opts.mappingKey,
    passesGate: opts.passesGate,
  });
  // Built from the table as it was before the files it just read changed: only what they touch is
  // made again, stamped with the files as the table read them (a file saved since: the digest
  // differs from memory/ now and reads go to the whole table, as for any edit after a refresh).
  if (
    meta &&
    known &&
    delta &&
    delta.beforeDigest === meta.filesDigest &&
    meta.mappingKey === opts.mappingKey &&
    meta.gateVersion === VERSION
  ) {
    fs.rmSync(path.join(dir, META), { force: true });
    const files = new GenFiles(dir, meta.gens, true);
    let update: HeadsUpdate | undefined;
    let stored: Stored | undefined;
    try {
      stored = storedOf(dir, meta);
      update = planDelta(
        {
          changed: delta.changed,
          before: { raw: delta.before, scoped: withScopes(delta.before, opts.scopeOf) },
          after: { raw: delta.after, scoped: withScopes(delta.after, opts.scopeOf) },
        } satisfies Delta,
        stored,
      );
    } catch {
      // A file of the heads missing or damaged: rebuilt whole below.
    }
    if (update && stored && files.complete())
      return writeUpdate(dir, files, meta, update, stored, base(delta.afterDigest));
  }
  const files = statedMemoryFiles(workspace);
  const now = base(filesDigestOf(files));
  if (known && meta!.digest === now.digest) return meta;
  fs.rmSync(path.join(dir, META), { force: true });
  const records = recordsAt(files);
  if (!records) return undefined;
  const model = buildModel(records, withScopes(records, opts.scopeOf), cited);
  return writeModel(dir, new GenFiles(dir, meta?.gens ?? {}, false), model, now);
}
