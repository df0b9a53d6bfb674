/**
 * An archive segment's files on disk: a new segment's name (the state's counter, so no two segments
 * share one), its `.vec` beside it when its windows were embedded, and the removal of files the
 * state no longer lists. A segment's files are written before the state that lists them, and
 * removed only after a state that no longer lists them is written, so a killed update or purge
 * never leaves a state naming a missing file.
 */
import fs from 'node:fs';
import type { WorkspaceWriter } from '../write/writer.js';
import type { ArchiveDoc } from './format.js';
import { SegmentStream } from './segment-stream.js';
import { ARCHIVE_DIR, type ArchiveState } from './store.js';
import type { Vectors } from './vectors.js';

export const nextSegmentName = (state: ArchiveState) => `seg-${String(state.nextSegment++).padStart(6, '0')}`;

/** Writes docs as a new segment (its files only: the caller lists it in the state and writes that last). */
export async function writeSegment(
  writer: WorkspaceWriter,
  state: ArchiveState,
  docs: ArchiveDoc[],
  vectors: Vectors | null = null,
): Promise<ArchiveState['segments'][number]> {
  const seg = await SegmentStream.open(writer, nextSegmentName(state));
  for (const d of docs) seg.add(d);
  return placeSegment(writer, seg, vectors);
}

export async function placeSegment(
  writer: WorkspaceWriter,
  seg: SegmentStream,
  vectors: Vectors | null,
): Promise<ArchiveState['segments'][number]> {
  const { docs, tokens } = await seg.finish();
  if (!vectors) return { name: seg.name, docs, tokens };
  await writer.write(
    `${ARCHIVE_DIR}/${seg.name}.vec`,
    new Uint8Array(vectors.rows.buffer, vectors.rows.byteOffset, docs * vectors.dims * 4),
  );
  return { name: seg.name, docs, tokens, dims: vectors.dims };
}

/** Segment files the state no longer lists (after a rebuild or a purge). */
export async function removeUnlisted(workspace: string, writer: WorkspaceWriter, state: ArchiveState): Promise<void> {
  const keep = new Set(state.segments.map((s) => s.name));
  const names = await fs.promises.readdir(writer.resolve(ARCHIVE_DIR)).catch(() => [] as string[]);
  for (const n of names) {
    const seg = /^(seg-\d+)\./.exec(n)?.[1];
    if (seg && !keep.has(seg)) await fs.promises.rm(writer.resolve(`${ARCHIVE_DIR}/${n}`), { force: true });
  }
}
