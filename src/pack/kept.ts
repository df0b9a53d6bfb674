/**
 * Entries as the ready packs keep them (pack-cache.ts): where each is and what renders it (kind,
 * title, every field), without its raw text. And the whole entries of every file the packs use,
 * kept in `records.json` under the file's stamp in the entry table, so a refresh parses only the
 * files changed since the last one (at 10,000 files: a few, not a few hundred).
 *
 * Invariant: a kept entry is used only while its file's stamp (size, mtime, ctime) is the one the
 * table holds now, which the refresh that reads them has just brought up to date.
 */
import path from 'node:path';
import type { Field } from '../entries/model.js';
import type { EntryRecord } from '../entries/store.js';
import { readStamps } from '../entries/table-buckets.js';
import { wholeRecords } from '../entries/table-store.js';
import { readDerivedJson, writeDerivedFile } from '../write/atomic.js';

/** [file, startLine, endLine, kind, title, fields]. */
export type Kept = [file: string, startLine: number, endLine: number, kind: string, title: string, fields: Field[]];
type Stamp = [number, number, number];

export const kept = (r: EntryRecord): Kept => [
  r.file,
  r.block.startLine,
  r.block.endLine,
  r.entry.kind,
  r.entry.title,
  r.entry.fields,
];

function isField(x: unknown): x is Field {
  const f = x as Field;
  return (
    !!f &&
    typeof f.key === 'string' &&
    typeof f.value === 'string' &&
    (f.children === undefined || (Array.isArray(f.children) && f.children.every(isField)))
  );
}

export function isKept(x: unknown): x is Kept {
  return (
    Array.isArray(x) &&
    x.length === 6 &&
    typeof x[0] === 'string' &&
    Number.isInteger(x[1]) &&
    Number.isInteger(x[2]) &&
    typeof x[3] === 'string' &&
    typeof x[4] === 'string' &&
    Array.isArray(x[5]) &&
    x[5].every(isField)
  );
}

const idOf = (k: Kept) => k[5].find((f) => f.key === 'id')?.value ?? '';

/** A record from what was kept: whole for rendering (raw text left out: a pack prints fields, not raw). */
export function recordOf(k: Kept): EntryRecord {
  const [file, startLine, endLine, kind, title, fields] = k;
  const entry = { kind, title, fields };
  return { file, id: idOf(k), entry, block: { type: 'entry', entry, raw: '', startLine, endLine } };
}

const RECORDS = 'records.json';
const sameStamp = (a: Stamp | undefined, b: Stamp | undefined) =>
  !!a && !!b && a[0] === b[0] && a[1] === b[1] && a[2] === b[2];

/** Whole entries by file, from records.json while the file's stamp holds, else parsed. */
export class KeptRecords {
  private readonly now = new Map<string, { stamp: Stamp; records: Map<string, EntryRecord> }>();
  private readonly parse: (r: EntryRecord) => Promise<EntryRecord>;
  private readonly stamps: Record<string, Stamp>;

  private constructor(
    workspace: string,
    private readonly before: Map<string, { stamp: Stamp; kept: Kept[] }>,
  ) {
    this.parse = wholeRecords(workspace);
    this.stamps = readStamps(workspace);
  }

  static read(workspace: string, dir: string): KeptRecords {
    const before = new Map<string, { stamp: Stamp; kept: Kept[] }>();
    // None kept (missing or damaged): every file is parsed.
    const v = readDerivedJson(path.join(dir, RECORDS));
    for (const x of Array.isArray(v) ? v : []) {
      const ok =
        Array.isArray(x) &&
        typeof x[0] === 'string' &&
        Array.isArray(x[1]) &&
        x[1].length === 3 &&
        x[1].every(Number.isFinite) &&
        Array.isArray(x[2]) &&
        x[2].every(isKept);
      if (ok) before.set(x[0], { stamp: x[1], kept: x[2] });
    }
    return new KeptRecords(workspace, before);
  }

  /** `r` (a table record) whole: the same object for the same entry, within one refresh. */
  async whole(r: EntryRecord): Promise<EntryRecord> {
    const at = `${r.block.startLine}\0${r.id}`;
    const stamp = this.stamps[r.file];
    let file = this.now.get(r.file);
    if (!file || !sameStamp(file.stamp, stamp))
      this.now.set(r.file, (file = { stamp: stamp ?? [-1, -1, -1], records: new Map() }));
    const had = file.records.get(at);
    if (had) return had;
    const before = this.before.get(r.file);
    const old = sameStamp(before?.stamp, stamp) ? before!.kept.find((k) => `${k[1]}\0${idOf(k)}` === at) : undefined;
    const got = old ? recordOf(old) : await this.parse(r);
    file.records.set(at, got);
    return got;
  }

  /** `keepBefore`: keep the last refresh's entries of files unchanged since (only some packs were made again). */
  write(dir: string, keepBefore = false): void {
    const out = [...this.now].map(([f, { stamp, records }]): [string, Stamp, Kept[]] => [
      f,
      stamp,
      [...records.values()].map(kept),
    ]);
    if (keepBefore)
      for (const [f, { stamp, kept: list }] of this.before)
        if (!this.now.has(f) && sameStamp(stamp, this.stamps[f])) out.push([f, stamp, list]);
    writeDerivedFile(path.join(dir, RECORDS), JSON.stringify(out));
  }
}
