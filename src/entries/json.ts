/**
 * An entry as JSON (`mem get --json`, MCP `memory_get`, `mem export --json`): fields as an object,
 * a nested list as a nested object. A key given twice in one entry (lint reports it) shows its first
 * value, the one getField, lint, search and compound read: the last one showed an entry other than
 * the one memfold acts on.
 */
import type { Field } from './model.js';
import type { EntryRecord } from './store.js';

export function fieldObject(fields: Field[]): Record<string, unknown> {
  const out = new Map<string, unknown>();
  for (const f of fields) if (!out.has(f.key)) out.set(f.key, f.children ? fieldObject(f.children) : f.value);
  return Object.fromEntries(out);
}

/** The shape of `mem get --json` and `memory_get` by id. */
export function entryJson(r: EntryRecord) {
  return {
    id: r.id,
    path: r.file,
    startLine: r.block.startLine,
    endLine: r.block.endLine,
    kind: r.entry.kind,
    title: r.entry.title,
    fields: fieldObject(r.entry.fields),
    markdown: r.block.raw.trimEnd() + '\n',
  };
}
