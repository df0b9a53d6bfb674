/**
 * `mem export`: every entry with its fields and sources, as JSON (one object per entry, nested
 * fields as objects) or Markdown (the entries' own text, grouped by file). Reads the workspace only;
 * `--out FILE` is one of the few writes outside it (DESIGN §2), where ./export-target.ts allows: a
 * regular file is replaced atomically; a symlink, device or FIFO (`--out /dev/stdout`) is written
 * through, never replaced.
 */
import fs from 'node:fs';
import { describeError, writeRefused } from '../core/errors.js';
import { readSource, type SourceContext } from '../archive/source.js';
import { fieldObject } from '../entries/json.js';
import { getSource } from '../entries/model.js';
import type { EntryRecord } from '../entries/store.js';
import { writeFileAtomic } from '../write/atomic.js';
import { exportTarget } from './export-target.js';

export interface ExportedEntry {
  id: string;
  kind: string;
  title: string;
  path: string;
  startLine: number;
  endLine: number;
  fields: Record<string, unknown>;
  source: { session_id: string; session_path: string; message_range: string } | null;
  /** With --with-evidence: the cited transcript turns, or why they cannot be shown. */
  evidence?: Evidence;
}

export type Evidence =
  | { turns: Array<{ index: number; role: string; timestamp: string | null; text: string }>; warnings: string[] }
  | { error: string };

/** The cited turns of every entry that has a transcript source (DESIGN §8 audit). */
export async function evidenceOf(records: EntryRecord[], ctx: SourceContext): Promise<Map<string, Evidence>> {
  const out = new Map<string, Evidence>();
  for (const r of records) {
    if (!getSource(r.entry)?.session_path) continue;
    try {
      const s = await readSource(r, ctx, 0);
      out.set(r.id, {
        turns: s.turns.map(({ index, role, timestamp, text }) => ({ index, role, timestamp, text })),
        warnings: s.warnings,
      });
    } catch (err) {
      out.set(r.id, { error: describeError(err) });
    }
  }
  return out;
}

export function exportJson(
  records: EntryRecord[],
  exportedAt: string,
  evidence?: Map<string, Evidence>,
): { exportedAt: string; count: number; entries: ExportedEntry[] } {
  const entries = records.map((r) => ({
    id: r.id,
    kind: r.entry.kind,
    title: r.entry.title,
    path: r.file,
    startLine: r.block.startLine,
    endLine: r.block.endLine,
    fields: fieldObject(r.entry.fields),
    source: getSource(r.entry) ?? null,
    ...(evidence?.has(r.id) ? { evidence: evidence.get(r.id)! } : {}),
  }));
  return { exportedAt, count: entries.length, entries };
}

export function exportMarkdown(records: EntryRecord[], exportedAt: string, evidence?: Map<string, Evidence>): string {
  const out = [`# memfold export\n\nExported ${exportedAt}: ${records.length} entries.\n`];
  let file = '';
  for (const r of records) {
    if (r.file !== file) {
      file = r.file;
      out.push(`\n<!-- file: ${file} -->\n`);
    }
    out.push('\n' + r.block.raw.trimEnd() + '\n');
    const e = evidence?.get(r.id);
    if (e)
      out.push(
        '\n' +
          ('error' in e
            ? `> evidence: ${e.error}`
            : e.turns
                .map(
                  (t) =>
                    `> [${t.index}] ${t.role}${t.timestamp ? ` · ${t.timestamp}` : ''}\n> ${t.text.replace(/\n/g, '\n> ')}`,
                )
                .join('\n>\n')) +
          '\n',
      );
  }
  return out.join('');
}

/** `--out`: where ./export-target.ts allows. */
export async function writeExport(workspace: string, out: string, data: string, force: boolean): Promise<string> {
  const abs = exportTarget(workspace, out, force);
  const st = fs.lstatSync(abs, { throwIfNoEntry: false });
  if (st && !st.isFile() && !st.isDirectory()) {
    await fs.promises.writeFile(abs, data).catch((err: unknown) => {
      throw writeRefused(err, out, 'the export was not written');
    });
  } else await writeFileAtomic(abs, data);
  return abs;
}
