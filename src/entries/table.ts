/**
 * The entry table's rows (issue 28), pure: what a read needs of an entry without its file (id, kind,
 * title, lines, and the fields that choose, order and chain entries: date, status, supersedes, key,
 * scope, origin, core, weight, state, confirmed, retracts, confidence, conclusion). A record made from
 * a row (`tableRecord`) carries those fields only and an empty `raw`: enough to select a context pack
 * or follow a supersedes chain; whatever prints an entry's text reads its file (table-store.ts `whole`).
 *
 * Invariant: a field keeps its first value exactly, and a field the entry lacks stays absent (null in
 * the row), so getField on a table record answers as on the parsed entry for every field listed here,
 * and getSource gives the source's session_path.
 */
import { getField, getSource, type Entry, type Field } from './model.js';
import type { EntryRecord } from './store.js';

export const TABLE_FIELDS = [
  'id',
  'date',
  'status',
  'supersedes',
  'key',
  'scope',
  'origin',
  'core',
  'weight',
  'state',
  'confirmed',
  'retracts',
  'confidence',
  'conclusion',
  // Not a field of its own: the source's session_path, from which an entry written before scopes gets its scope.
  'session_path',
] as const;

const valueOf = (entry: Entry, f: (typeof TABLE_FIELDS)[number]) =>
  f === 'session_path' ? getSource(entry)?.session_path || undefined : getField(entry, f);

/** [kind, title, startLine, endLine, ...TABLE_FIELDS values (null: absent)]. */
export type Row = [string, string, number, number, ...(string | null)[]];

export function rowOf(r: EntryRecord): Row {
  return [
    r.entry.kind,
    r.entry.title,
    r.block.startLine,
    r.block.endLine,
    ...TABLE_FIELDS.map((f) => valueOf(r.entry, f) ?? null),
  ];
}

export function tableRecord(file: string, row: Row): EntryRecord {
  const fields: Field[] = [];
  for (let i = 0; i < TABLE_FIELDS.length; i++) {
    const value = row[4 + i];
    if (typeof value !== 'string') continue;
    const key = TABLE_FIELDS[i]!;
    fields.push(key === 'session_path' ? { key: 'source', value: '', children: [{ key, value }] } : { key, value });
  }
  const entry = { kind: row[0], title: row[1], fields };
  return {
    file,
    id: getField(entry, 'id') ?? '',
    entry,
    block: { type: 'entry', entry, raw: '', startLine: row[2], endLine: row[3] },
  };
}

/** A row as JSON gave it back: checked before it is trusted (the table is a file anyone can damage). */
export function isRow(x: unknown): x is Row {
  return (
    Array.isArray(x) &&
    x.length === 4 + TABLE_FIELDS.length &&
    typeof x[0] === 'string' &&
    typeof x[1] === 'string' &&
    Number.isInteger(x[2]) &&
    Number.isInteger(x[3]) &&
    x.slice(4).every((v) => v === null || typeof v === 'string')
  );
}
