/**
 * `mem export`: every entry with its fields and sources, as JSON (one object per entry, nested
 * fields as objects) or Markdown (the entries' own text, grouped by file). Reads the workspace only;
 * `--out FILE` is one of the few writes outside it (DESIGN §2) and is written atomically.
 */
import path from 'node:path';
import { MemError } from '../core/errors.js';
import { getSource, type Field } from '../entries/model.js';
import type { EntryRecord } from '../entries/store.js';
import { writeFileAtomic } from '../write/atomic.js';

export interface ExportedEntry {
  id: string;
  kind: string;
  title: string;
  path: string;
  startLine: number;
  endLine: number;
  fields: Record<string, unknown>;
  source: { session_id: string; session_path: string; message_range: string } | null;
}

export function fieldObject(fields: Field[]): Record<string, unknown> {
  return Object.fromEntries(fields.map((f) => [f.key, f.children ? fieldObject(f.children) : f.value]));
}

export function exportJson(records: EntryRecord[], exportedAt: string): { exportedAt: string; count: number; entries: ExportedEntry[] } {
  const entries = records.map((r) => ({
    id: r.id, kind: r.entry.kind, title: r.entry.title, path: r.file, startLine: r.block.startLine, endLine: r.block.endLine,
    fields: fieldObject(r.entry.fields), source: getSource(r.entry) ?? null,
  }));
  return { exportedAt, count: entries.length, entries };
}

export function exportMarkdown(records: EntryRecord[], exportedAt: string): string {
  const out = [`# memfold export\n\nExported ${exportedAt}: ${records.length} entries.\n`];
  let file = '';
  for (const r of records) {
    if (r.file !== file) {
      file = r.file;
      out.push(`\n<!-- file: ${file} -->\n`);
    }
    out.push('\n' + r.block.raw.trimEnd() + '\n');
  }
  return out.join('');
}

/** `--out`: anywhere but inside the memory itself, where the copy would be read as a second set of entries. */
export async function writeExport(workspace: string, out: string, data: string): Promise<string> {
  const abs = path.resolve(out);
  const rel = path.relative(workspace, abs).split(path.sep).join('/');
  if (!rel.startsWith('..') && !path.isAbsolute(rel) && /^(MEMORY\.md$|memory\/|second-brain\/|\.mem\/)/.test(rel)) {
    throw new MemError('USAGE', `--out ${out} is inside the workspace's memory (${rel}); write the export elsewhere`);
  }
  await writeFileAtomic(abs, data);
  return abs;
}
