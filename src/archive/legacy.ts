/**
 * The archive an older memfold wrote (state version 1: its own segment format, `seg-N.docs.jsonl`,
 * `.meta.bin`, `.post`). It is never searched; the next `mem archive` rebuilds it from the
 * transcripts (store.ts). Until then its windows are read here for one reason: no purge may be lost,
 * so the turn ranges of its tombstones, and of the windows a `mem forget --hard` finds meanwhile,
 * join the `purged` ranges the rebuild leaves out.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { ArchiveDoc } from './format.js';
import { ARCHIVE_DIR } from './paths.js';

export interface LegacyState {
  segments: Array<{ name?: unknown }>;
  files?: Record<string, { no?: unknown }>;
  purged?: Array<{ file: string; a: number; b: number }>;
}

/** Every readable window of the old segments, with its transcript (undefined for a retired file). */
export function* legacyWindows(workspace: string, v: LegacyState): Generator<{ d: ArchiveDoc; file?: string }> {
  const fileOf = new Map(Object.entries(v.files ?? {}).map(([file, f]) => [f.no, file]));
  for (const s of v.segments) {
    if (typeof s.name !== 'string' || !/^seg-\d+$/.test(s.name)) continue;
    let text = '';
    try {
      text = fs.readFileSync(path.join(workspace, ARCHIVE_DIR, `${s.name}.docs.jsonl`), 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n')) {
      try {
        if (line) {
          const d = JSON.parse(line) as ArchiveDoc;
          yield { d, file: fileOf.get(d.f) };
        }
      } catch {
        // a damaged line: the rebuild reads its turns from the transcript
      }
    }
  }
}

/** The old state's purged ranges and its tombstones' turn ranges. */
export function legacyPurges(workspace: string, v: LegacyState): Array<{ file: string; a: number; b: number }> {
  const out = Array.isArray(v.purged) ? [...v.purged] : [];
  for (const { d, file } of legacyWindows(workspace, v)) if (d.purged && file) out.push({ file, a: d.a, b: d.b });
  return out;
}

/**
 * The old segments' window vectors by text (archive.embed), so the rebuild of a format change makes
 * no embedding call for a window embedded before. The old state did not record the model: rows are
 * taken when their width is the configured `dimensions` (any width when none is configured).
 */
export function legacyVectors(
  workspace: string,
  v: LegacyState,
  dims: number | undefined,
): ((text: string) => Float32Array | undefined) | undefined {
  const byText = new Map<string, Float32Array>();
  for (const raw of v.segments as Array<{ name?: unknown; docs?: unknown; dims?: unknown }>) {
    if (typeof raw.name !== 'string' || !/^seg-\d+$/.test(raw.name)) continue;
    if (typeof raw.docs !== 'number' || typeof raw.dims !== 'number' || (dims !== undefined && raw.dims !== dims))
      continue;
    const s = raw as { name: string; docs: number; dims: number };
    let buf: Buffer;
    let lines: string[];
    try {
      buf = fs.readFileSync(path.join(workspace, ARCHIVE_DIR, `${s.name}.vec`));
      lines = fs.readFileSync(path.join(workspace, ARCHIVE_DIR, `${s.name}.docs.jsonl`), 'utf8').split('\n');
    } catch {
      continue;
    }
    if (buf.length !== s.docs * s.dims * 4 || lines.length !== s.docs + 1) continue;
    const rows = new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length));
    lines.forEach((line, i) => {
      const row = i < s.docs ? rows.subarray(i * s.dims, (i + 1) * s.dims) : undefined;
      if (!row?.some((x) => x !== 0)) return;
      try {
        byText.set(hash((JSON.parse(line) as ArchiveDoc).x), row);
      } catch {
        // a damaged line: that window is embedded again
      }
    });
  }
  return byText.size ? (text) => byText.get(hash(text)) : undefined;
}

const hash = (text: string) => createHash('sha256').update(text).digest('base64');
