/**
 * The archive tier's state (`.mem/archive/state.json`) and segment reads. The state is written last
 * by every update, atomically: a segment it does not list is an unfinished update's leftover and is
 * never read, so a killed update costs a re-read of the same new lines, never a wrong hit.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Cursor } from '../transcripts/cursors.js';
import type { SourceKind } from '../transcripts/index.js';
import { HEADER_BYTES, META_U32, SHARDS, shardOf, shardRange, termPostings, type ArchiveDoc } from './format.js';

import { ARCHIVE_DIR, STATE_FILE } from './paths.js';

export { ARCHIVE_DIR, STATE_FILE } from './paths.js';

export interface ArchiveFile {
  no: number;
  source: string;
  kind: SourceKind;
  sessionId: string;
  cursor: Pick<Cursor, 'offset' | 'turns' | 'size' | 'mtimeMs' | 'head' | 'tail' | 'pendingTools'>;
}

export interface ArchiveState {
  version: 1;
  /** `dims`: the segment has `seg-N.vec` rows of that width (archive.embed; see vectors.ts). */
  segments: Array<{ name: string; docs: number; tokens: number; dims?: number }>;
  /** Absolute transcript path → its file number and the archive's own cursor. */
  files: Record<string, ArchiveFile>;
  /** File numbers of transcripts that were rewritten (or vanished): their docs are never returned. */
  retired: number[];
  /** Turn ranges removed by `mem forget --hard`: never indexed again, even on a re-read. */
  purged: Array<{ file: string; a: number; b: number }>;
  nextFile: number;
  nextSegment: number;
}

export function emptyState(): ArchiveState {
  return { version: 1, segments: [], files: {}, retired: [], purged: [], nextFile: 1, nextSegment: 1 };
}

export function loadState(workspace: string): ArchiveState | undefined {
  try {
    const v = JSON.parse(fs.readFileSync(path.join(workspace, STATE_FILE), 'utf8')) as ArchiveState;
    return v.version === 1 && Array.isArray(v.segments) ? v : undefined;
  } catch {
    return undefined;
  }
}

export const serialiseState = (s: ArchiveState) => JSON.stringify(s) + '\n';

/**
 * Why a listed segment cannot be trusted (a file missing, truncated or grown: a disk error, a hand
 * edit, a copy cut short), or null when its three files agree with each other and with the state.
 * Cheap: three stats and two small reads.
 */
export function segmentDamage(workspace: string, seg: { name: string; docs: number; dims?: number }): string | null {
  const base = path.join(workspace, ARCHIVE_DIR, seg.name);
  const size = (ext: string) => fs.statSync(`${base}.${ext}`, { throwIfNoEntry: false })?.size;
  const [docs, meta, post] = [size('docs.jsonl'), size('meta.bin'), size('post')];
  if (docs === undefined || meta === undefined || post === undefined) return `${seg.name}: a file is missing`;
  if (meta !== seg.docs * META_U32 * 4)
    return `${seg.name}.meta.bin: ${meta} bytes, expected ${seg.docs * META_U32 * 4}`;
  if (post < HEADER_BYTES) return `${seg.name}.post: truncated`;
  const vec = seg.dims ? size('vec') : undefined;
  if (seg.dims && vec !== seg.docs * seg.dims * 4)
    return `${seg.name}.vec: ${vec ?? 'missing'}${vec === undefined ? '' : ' bytes'}, expected ${seg.docs * seg.dims * 4} bytes`;
  const reader = new SegmentReader(base, seg.docs);
  try {
    const last = seg.docs ? reader.meta(seg.docs - 1) : undefined;
    if (last && docs !== last[0]! + last[1]!)
      return `${seg.name}.docs.jsonl: ${docs} bytes, expected ${last[0]! + last[1]!}`;
    if (!last && docs !== 0) return `${seg.name}.docs.jsonl: not empty`;
    const header = reader.shardTable();
    let total = HEADER_BYTES;
    for (let s = 0; s < SHARDS; s++)
      total = Math.max(
        total,
        shardRange(header, s).reduce((a, b) => a + b),
      );
    return post === total ? null : `${seg.name}.post: ${post} bytes, expected ${total}`;
  } catch (err) {
    return `${seg.name}: ${(err as Error).message}`;
  } finally {
    reader.close();
  }
}

/** A segment on disk, opened lazily: reads only the shards and doc lines a query needs. */
export class SegmentReader {
  private fds = new Map<string, number>();
  private header?: Uint32Array;
  private shardText = new Map<number, string>();
  private metaAll?: Uint32Array;

  constructor(
    private readonly base: string,
    readonly docs: number,
  ) {}

  static open(workspace: string, name: string, docs: number): SegmentReader {
    return new SegmentReader(path.join(workspace, ARCHIVE_DIR, name), docs);
  }

  private read(ext: string, offset: number, length: number): Buffer {
    let fd = this.fds.get(ext);
    if (fd === undefined) this.fds.set(ext, (fd = fs.openSync(`${this.base}.${ext}`, 'r')));
    const buf = Buffer.allocUnsafe(length);
    let got = 0;
    while (got < length) {
      const n = fs.readSync(fd, buf, got, length - got, offset + got);
      if (n === 0) throw new Error(`${this.base}.${ext}: truncated`);
      got += n;
    }
    return buf;
  }

  shardTable(): Uint32Array {
    if (!this.header) {
      const b = this.read('post', 0, HEADER_BYTES);
      this.header = new Uint32Array(b.buffer.slice(b.byteOffset, b.byteOffset + SHARDS * 8));
    }
    return this.header;
  }

  postings(term: string): Array<[number, number]> {
    const shard = shardOf(term);
    let text = this.shardText.get(shard);
    if (text === undefined) {
      const [off, len] = shardRange(this.shardTable(), shard);
      text = len ? this.read('post', off, len).toString('utf8') : '';
      this.shardText.set(shard, text);
    }
    return termPostings(text, term);
  }

  /** [offset, length, tokens, seconds, fileNo, first, last] of a doc. */
  meta(doc: number): Uint32Array {
    if (!this.metaAll) {
      const b = this.read('meta.bin', 0, this.docs * META_U32 * 4);
      this.metaAll = new Uint32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.length));
    }
    return this.metaAll.subarray(doc * META_U32, (doc + 1) * META_U32);
  }

  doc(doc: number): ArchiveDoc {
    const m = this.meta(doc);
    return JSON.parse(this.read('docs.jsonl', m[0]!, m[1]!).toString('utf8')) as ArchiveDoc;
  }

  allDocs(): ArchiveDoc[] {
    const text = fs.readFileSync(`${this.base}.docs.jsonl`, 'utf8');
    return text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as ArchiveDoc);
  }

  close(): void {
    for (const fd of this.fds.values()) fs.closeSync(fd);
    this.fds.clear();
  }
}
