/**
 * An archive segment's files on disk: a new segment's name and first doc id (the state's counters,
 * so no two segments share either), its `.vec` beside it when its windows were embedded, and the
 * removal of files the state no longer lists. A segment's files are written before the state that
 * lists them, and removed only after a state that no longer lists them is written, so a killed
 * update or purge never leaves a state naming a missing file.
 */
import fs from 'node:fs';
import type { WorkspaceWriter } from '../write/writer.js';
import type { ArchiveDoc } from './format.js';
import { ArchiveSegmentWriter, type SegmentEntry } from './segment-writer.js';
import { ARCHIVE_DIR, type ArchiveState } from './store.js';
import type { Vectors } from './vectors.js';

/** A new, empty segment: its name and doc ids are taken from the state's counters when it is finished. */
export function openSegmentWriter(state: ArchiveState): ArchiveSegmentWriter {
  return new ArchiveSegmentWriter(`seg-${String(state.nextSegment++).padStart(6, '0')}`, state.nextDoc);
}

/** Writes docs as a new segment (its files only: the caller lists it in the state and writes that last). */
export async function writeSegment(
  writer: WorkspaceWriter,
  state: ArchiveState,
  docs: ArchiveDoc[],
  vectors: Vectors | null = null,
): Promise<SegmentEntry> {
  const seg = openSegmentWriter(state);
  for (const d of docs) seg.add(d);
  return placeSegment(writer, state, seg, vectors);
}

/** Writes an open segment's files (and its vectors) and moves the state's doc counter past it. */
export async function placeSegment(
  writer: WorkspaceWriter,
  state: ArchiveState,
  seg: ArchiveSegmentWriter,
  vectors: Vectors | null,
): Promise<SegmentEntry> {
  const entry = await seg.finish(writer);
  state.nextDoc = Math.max(state.nextDoc, entry.first + entry.docs);
  if (!vectors) return entry;
  await writer.write(
    `${ARCHIVE_DIR}/${seg.name}.vec`,
    new Uint8Array(vectors.rows.buffer, vectors.rows.byteOffset, entry.docs * vectors.dims * 4),
  );
  return { ...entry, dims: vectors.dims };
}

/** Segment files the state no longer lists (after a rebuild or a purge, and an older format's). */
export async function removeUnlisted(workspace: string, writer: WorkspaceWriter, state: ArchiveState): Promise<void> {
  const keep = new Set(state.segments.map((s) => s.name));
  const names = await fs.promises.readdir(writer.resolve(ARCHIVE_DIR)).catch(() => [] as string[]);
  for (const n of names) {
    const seg = /^(seg-\d+)\./.exec(n)?.[1];
    // The older format's files go even where a new segment took the same name (a rebuild restarts the count).
    if (seg && (!keep.has(seg) || /\.(docs\.jsonl|meta\.bin)$/.test(n)))
      await fs.promises.rm(writer.resolve(`${ARCHIVE_DIR}/${n}`), { force: true });
  }
}
