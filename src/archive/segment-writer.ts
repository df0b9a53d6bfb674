/**
 * One archive segment as its windows arrive: the memory index's SegmentBuilder (term ids, typed
 * arrays, one JSON line per doc) plus the 2 u32 of meta a window (format.ts). Its doc ids start at
 * the state's `nextDoc`, so no two segments of the archive share one (a query ranks them all as one
 * tier). `finish()` writes the five files, each atomically; the caller lists the segment in the
 * state and writes that last, so a killed update never leaves a state naming a missing file. The
 * segment is held in memory until then: update.ts bounds it (SEGMENT_CHARS of window text).
 */
import { SegmentBuilder } from '../search/index/segment-builder.js';
import type { WorkspaceWriter } from '../write/writer.js';
import { addWindow, ARCHIVE_EXTS, META_U32, type ArchiveDoc, type ArchiveSegmentFiles } from './format.js';
import { ARCHIVE_DIR } from './paths.js';

/** A segment as the state lists it. */
export interface SegmentEntry {
  name: string;
  first: number;
  docs: number;
  /** Sum of the docs' body lengths (BM25's average length). */
  tokens: number;
  /** Byte sizes of .dict, .post, .didx, .docs and .meta, as written. */
  bytes: number[];
  /** `seg-N.vec` rows of that width (archive.embed; see vectors.ts). */
  dims?: number;
}

export class ArchiveSegmentWriter {
  private readonly builder: SegmentBuilder;
  private meta = new Uint32Array(1024 * META_U32);

  constructor(
    readonly name: string,
    readonly first: number,
  ) {
    this.builder = new SegmentBuilder(first);
  }

  get docs(): number {
    return this.builder.count;
  }

  add(d: ArchiveDoc): void {
    const i = this.builder.count;
    const row = addWindow(this.builder, d);
    if ((i + 1) * META_U32 > this.meta.length) {
      const grown = new Uint32Array(this.meta.length * 2);
      grown.set(this.meta);
      this.meta = grown;
    }
    this.meta.set(row, i * META_U32);
  }

  /** The segment's files (pure: nothing written). */
  files(): ArchiveSegmentFiles {
    const files = this.builder.finish();
    const meta = new Uint8Array(this.meta.buffer, 0, this.builder.count * META_U32 * 4);
    return { ...files, meta };
  }

  /** Writes the five files; returns the state's entry for them. */
  async finish(writer: WorkspaceWriter): Promise<SegmentEntry> {
    const files = this.files();
    const bytes = ARCHIVE_EXTS.map((ext) => files[ext].length);
    for (const ext of ARCHIVE_EXTS) await writer.write(`${ARCHIVE_DIR}/${this.name}.${ext}`, files[ext]);
    return { name: this.name, first: this.first, docs: this.docs, tokens: this.builder.lenSum[1], bytes };
  }
}
