/**
 * Optional embeddings of the archive tier (`archive.embed`, with `embedding` configured). Each
 * segment may carry `seg-N.vec`: one L2-normalised float32 row per window, in doc order, all zeros
 * for a window that has no vector (purged, or its batch failed). Vectors travel with their windows:
 * compaction and purge copy rows, never re-embed. Only redacted window text is ever sent (the same
 * text the index stores), so no secret reaches the embedding endpoint (DESIGN §9.5).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { EmbeddingConfig } from '../config/schema.js';
import type { ArchiveDoc } from './format.js';
import { ARCHIVE_DIR } from './paths.js';

export interface Vectors {
  dims: number;
  /** docs × dims, row-major. */
  rows: Float32Array;
}

export interface Embedded {
  vectors: Vectors | null;
  /** Windows that got a vector. */
  embedded: number;
  /** The provider's failure, if a batch failed (the rest of the windows keep zero rows). */
  failed: string | null;
}

/**
 * Embeds the windows' text in batches of `batchSize`; purged windows get none. A window whose text
 * `known` has a row for (the archive an older memfold wrote, being rebuilt) takes that row: a format
 * change costs no embedding call for a window embedded before.
 */
export async function embedDocs(
  cfg: EmbeddingConfig,
  docs: ArchiveDoc[],
  known?: (text: string) => Float32Array | undefined,
): Promise<Embedded> {
  const { embedBatch } = await import('../search/embed/embed-client.js');
  let rows: Float32Array | null = null;
  let dims = 0;
  let embedded = 0;
  const todo: Array<{ i: number; text: string }> = [];
  for (const [i, d] of docs.entries()) {
    if (d.purged || !d.x.trim()) continue;
    const v = known?.(d.x);
    if (!v || (dims && v.length !== dims)) {
      todo.push({ i, text: d.x });
      continue;
    }
    rows ??= new Float32Array(docs.length * (dims = v.length));
    rows.set(v, i * dims);
    embedded++;
  }
  for (let at = 0; at < todo.length; at += cfg.batchSize) {
    const batch = todo.slice(at, at + cfg.batchSize);
    let vecs: Float32Array[];
    try {
      vecs = await embedBatch(
        cfg,
        batch.map((b) => b.text),
        { keepAlive: true },
      );
    } catch (err) {
      return { vectors: rows ? { dims, rows } : null, embedded, failed: (err as Error).message };
    }
    if (!rows) {
      dims = vecs[0]!.length;
      rows = new Float32Array(docs.length * dims);
    }
    for (const [j, b] of batch.entries()) {
      const v = vecs[j]!;
      if (v.length !== dims)
        return { vectors: { dims, rows }, embedded, failed: `embedding has ${v.length} dimensions, expected ${dims}` };
      rows.set(v, b.i * dims);
      embedded++;
    }
  }
  return { vectors: rows ? { dims, rows } : null, embedded, failed: null };
}

export function vecFile(workspace: string, name: string): string {
  return path.join(workspace, ARCHIVE_DIR, `${name}.vec`);
}

/** A segment's rows, or null when it has none (or they are unreadable: lexical ranking then). */
export function readVectors(workspace: string, seg: { name: string; docs: number; dims?: number }): Vectors | null {
  if (!seg.dims) return null;
  try {
    const buf = fs.readFileSync(vecFile(workspace, seg.name));
    if (buf.length !== seg.docs * seg.dims * 4) return null;
    return { dims: seg.dims, rows: new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length)) };
  } catch {
    return null;
  }
}

/** Rows `keep` (doc numbers of `from`, in order) as a new Vectors; null when `from` is null. */
export function pickRows(from: Vectors | null, keep: number[]): Vectors | null {
  if (!from) return null;
  const rows = new Float32Array(keep.length * from.dims);
  keep.forEach((doc, i) => rows.set(from.rows.subarray(doc * from.dims, (doc + 1) * from.dims), i * from.dims));
  return { dims: from.dims, rows };
}

/** Concatenates the rows of several segments' picks; a part without vectors gives zero rows. */
export function joinRows(parts: Array<{ vectors: Vectors | null; count: number }>): Vectors | null {
  const dims = parts.find((p) => p.vectors)?.vectors?.dims;
  if (!dims) return null;
  const total = parts.reduce((n, p) => n + p.count, 0);
  const rows = new Float32Array(total * dims);
  let at = 0;
  for (const p of parts) {
    if (p.vectors && p.vectors.dims === dims) rows.set(p.vectors.rows.subarray(0, p.count * dims), at * dims);
    at += p.count;
  }
  return { dims, rows };
}

/** The segment's windows that have a vector (a zero row has none) as (doc, row) pairs, doc ids from `first`. */
export function vectorPairs(v: Vectors, first: number): number[] {
  const pairs: number[] = [];
  const n = v.rows.length / v.dims;
  for (let row = 0; row < n; row++) {
    const at = row * v.dims;
    for (let i = 0; i < v.dims; i++)
      if (v.rows[at + i] !== 0) {
        pairs.push(first + row, row);
        break;
      }
  }
  return pairs;
}
