/**
 * Segment files on disk for `mem index`: is a committed segment still whole, and which files no
 * tier file names any more (removeUnreferenced). `mem index` asks the first before it builds on a
 * tier, so a segment file that was truncated, emptied or deleted after it was written makes the tier
 * rebuild (as the search's warning promises) instead of lingering until `--rebuild`. Cheap enough
 * for every run: four stats and one 8-byte read per segment, no parsing.
 *
 * Invariant: a segment passes only if its four files exist with the sizes recorded in the tier file
 * when it was written (`bytes`, an additive field: readers of the tier file ignore it) and its .didx
 * header names the doc range the tier file gives it. Segments written before `bytes` existed get
 * the structural checks the format allows without parsing: .didx, .docs and .dict sizes follow from
 * their headers, .post holds whole pairs.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { WorkspaceWriter } from '../../write/writer.js';
import { SEGMENT_EXTS, type SegmentFiles } from './segment-format.js';
import { INDEX_DIR, tierFile } from './tier-file.js';
import type { SegmentRef, TierState } from './tier-state.js';
import type { Tier } from '../text/types.js';

/** A segment reference as `mem index` writes it: with the byte sizes of .dict, .post, .didx, .docs. */
export interface SizedSegmentRef extends SegmentRef {
  bytes?: [number, number, number, number];
}

export function sizedRef(name: string, first: number, count: number, files: SegmentFiles): SizedSegmentRef {
  return { name, first, count, bytes: [files.dict.length, files.post.length, files.didx.length, files.docs.length] };
}

function readU32(file: string, offsets: number[]): number[] {
  const fd = fs.openSync(file, 'r');
  try {
    return offsets.map((at) => {
      const b = Buffer.alloc(4);
      return fs.readSync(fd, b, 0, 4, at) === 4 ? b.readUInt32LE(0) : -1;
    });
  } finally {
    fs.closeSync(fd);
  }
}

/** Why the segment's files cannot be the ones the tier file committed, or null when they look whole. */
export function segmentProblem(dir: string, ref: SizedSegmentRef): string | null {
  const file = (ext: string) => path.join(dir, `${ref.name}.${ext}`);
  const size: Record<string, number> = {};
  for (const ext of SEGMENT_EXTS) {
    const st = fs.statSync(file(ext), { throwIfNoEntry: false });
    if (!st?.isFile()) return `${ref.name}.${ext} is missing`;
    size[ext] = st.size;
  }
  const cut = (ext: string, want: number) =>
    size[ext] === want ? null : `${ref.name}.${ext} is truncated (${size[ext]} bytes, expected ${want})`;
  if (Array.isArray(ref.bytes) && ref.bytes.length === 4) {
    for (let i = 0; i < 4; i++) {
      const bad = cut(SEGMENT_EXTS[i]!, ref.bytes[i]!);
      if (bad) return bad;
    }
  }
  const didx = cut('didx', (3 + 4 * ref.count) * 4);
  if (didx) return didx;
  const [first, count, end] = readU32(file('didx'), [0, 4, (2 + 4 * ref.count) * 4]);
  if (first !== ref.first || count !== ref.count) return `${ref.name}.didx does not match the tier file`;
  const docs = cut('docs', end!);
  if (docs) return docs;
  if (size.dict! < 8) return `${ref.name}.dict is truncated`;
  const [shards] = readU32(file('dict'), [0]);
  const [dictBody] = shards! >= 1 && shards! <= 4096 ? readU32(file('dict'), [(shards! + 1) * 4]) : [-1];
  if (dictBody! < 0) return `${ref.name}.dict is truncated`;
  const dict = cut('dict', (shards! + 2) * 4 + dictBody!);
  if (dict) return dict;
  if (size.post! % 8) return `${ref.name}.post is truncated`;
  return null;
}

/** Removes the tier's segment files its tier file no longer names (dropped, compacted, or left by a killed update). */
export function removeUnreferenced(writer: WorkspaceWriter, tier: Tier, state: TierState): void {
  const keep = new Set(state.segments.map((s) => s.name));
  const file = new RegExp(`^(${tier}-\\d+-[a-z0-9]+)\\.(${SEGMENT_EXTS.join('|')})$`);
  for (const name of fs.readdirSync(path.dirname(writer.resolve(tierFile(tier))))) {
    const m = file.exec(name);
    if (m && !keep.has(m[1]!)) fs.rmSync(writer.resolve(`${INDEX_DIR}/${name}`), { force: true });
  }
}
