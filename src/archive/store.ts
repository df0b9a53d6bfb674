/**
 * The archive tier's state (`.mem/archive/state.json`) and segment reads. The state is written last
 * by every update, atomically: a segment it does not list is an unfinished update's leftover and is
 * never read, so a killed update costs a re-read of the same new lines, never a wrong hit.
 * State version 2 lists segments of the memory index's format (format.ts). A version 1 state (the
 * archive's own segment format, before issue 30) is read as `outdated`: searches say so and the next
 * `mem archive` rebuilds from the transcripts, keeping its purged turn ranges and its tombstones'
 * ranges, so no purge is lost.
 */
import fs from 'node:fs';
import path from 'node:path';
import { segmentProblem } from '../search/index/segment-check.js';
import { DiskSegment } from '../search/index/segment.js';
import type { Cursor } from '../transcripts/cursors.js';
import type { SourceKind } from '../transcripts/index.js';
import { ARCHIVE_EXTS, asWindow, META_U32, type ArchiveDoc } from './format.js';
import { ARCHIVE_DIR, STATE_FILE } from './paths.js';
import { legacyPurges, type LegacyState } from './legacy.js';
import type { SegmentEntry } from './segment-writer.js';

export { ARCHIVE_DIR, STATE_FILE } from './paths.js';

export interface ArchiveFile {
  no: number;
  source: string;
  kind: SourceKind;
  sessionId: string;
  cursor: Pick<Cursor, 'offset' | 'turns' | 'size' | 'mtimeMs' | 'head' | 'tail' | 'pendingTools'>;
}

export interface ArchiveState {
  version: 2;
  segments: SegmentEntry[];
  /** Absolute transcript path → its file number and the archive's own cursor. */
  files: Record<string, ArchiveFile>;
  /** File numbers of transcripts that were rewritten (or vanished): their docs are never returned. */
  retired: number[];
  /** Turn ranges removed by `mem forget --hard`: never indexed again, even on a re-read. */
  purged: Array<{ file: string; a: number; b: number }>;
  nextFile: number;
  nextSegment: number;
  /** The first doc id of the next segment. */
  nextDoc: number;
}

/** A state an older memfold wrote: only what a rebuild keeps of it. */
export interface OutdatedState {
  outdated: true;
  purged: ArchiveState['purged'];
  legacy: LegacyState;
}

export function emptyState(): ArchiveState {
  return { version: 2, segments: [], files: {}, retired: [], purged: [], nextFile: 1, nextSegment: 1, nextDoc: 0 };
}

export function loadState(workspace: string): ArchiveState | OutdatedState | undefined {
  let v: { version?: unknown; segments?: unknown };
  try {
    v = JSON.parse(fs.readFileSync(path.join(workspace, STATE_FILE), 'utf8')) as typeof v;
  } catch {
    return undefined;
  }
  if (!v || !Array.isArray(v.segments)) return undefined;
  if (v.version === 2) return wellFormed(v as ArchiveState) ? (v as ArchiveState) : undefined;
  return { outdated: true, purged: legacyPurges(workspace, v as LegacyState), legacy: v as LegacyState };
}

/** The state's own fields have their types (a segment entry is checked where it is used: segmentDamage). */
function wellFormed(s: ArchiveState): boolean {
  const n = (x: unknown) => Number.isInteger(x) && (x as number) >= 0;
  return (
    !!s.files &&
    typeof s.files === 'object' &&
    Array.isArray(s.retired) &&
    Array.isArray(s.purged) &&
    n(s.nextFile) &&
    n(s.nextSegment) &&
    n(s.nextDoc)
  );
}

export const isOutdated = (s: ArchiveState | OutdatedState | undefined): s is OutdatedState => !!s && 'outdated' in s;

export const serialiseState = (s: ArchiveState) => JSON.stringify(s) + '\n';

/**
 * Why a listed segment cannot be trusted (a file missing, truncated or grown: a disk error, a hand
 * edit, a copy cut short), or null when its files have the sizes the state recorded and agree with
 * each other (search/index/segment-check.ts, the memory index's own check). Cheap: stats and three
 * small reads.
 */
export function segmentDamage(workspace: string, seg: SegmentEntry): string | null {
  const dir = path.join(workspace, ARCHIVE_DIR);
  const bytes = seg.bytes;
  const whole = (n: unknown) => Number.isInteger(n) && (n as number) >= 0;
  if (!/^seg-\d+$/.test(String(seg.name)) || !whole(seg.first) || !whole(seg.docs) || !whole(seg.tokens))
    return `${String(seg.name)}: its entry in state.json is incomplete`;
  if (!Array.isArray(bytes) || bytes.length !== ARCHIVE_EXTS.length || !bytes.every(whole))
    return `${seg.name}: its file sizes in state.json are incomplete`;
  const problem = segmentProblem(dir, {
    name: seg.name,
    first: seg.first,
    count: seg.docs,
    bytes: bytes.slice(0, 4) as [number, number, number, number],
  });
  if (problem) return problem;
  const size = (ext: string) => fs.statSync(path.join(dir, `${seg.name}.${ext}`), { throwIfNoEntry: false })?.size;
  const meta = size('meta');
  if (meta !== seg.docs * META_U32 * 4 || meta !== bytes[ARCHIVE_EXTS.indexOf('meta')])
    return `${seg.name}.meta: ${meta ?? 'missing'}${meta === undefined ? '' : ' bytes'}, expected ${seg.docs * META_U32 * 4} bytes`;
  const vec = seg.dims ? size('vec') : undefined;
  if (seg.dims && vec !== seg.docs * seg.dims * 4)
    return `${seg.name}.vec: ${vec ?? 'missing'}${vec === undefined ? '' : ' bytes'}, expected ${seg.docs * seg.dims * 4} bytes`;
  return null;
}

export function openSegment(workspace: string, seg: SegmentEntry): DiskSegment {
  return DiskSegment.open(path.join(workspace, ARCHIVE_DIR), seg.name, seg.first, seg.docs);
}

/** A segment's meta rows: [seconds, file number (0: purged)] per doc. */
export function readMeta(workspace: string, seg: SegmentEntry): Uint32Array {
  const b = fs.readFileSync(path.join(workspace, ARCHIVE_DIR, `${seg.name}.meta`));
  return new Uint32Array(b.buffer.slice(b.byteOffset, b.byteOffset + seg.docs * META_U32 * 4));
}

/** Every window of a segment, in doc order (compaction and purge rewrite them). */
export function segmentWindows(workspace: string, seg: SegmentEntry): ArchiveDoc[] {
  const text = fs.readFileSync(path.join(workspace, ARCHIVE_DIR, `${seg.name}.docs`), 'utf8');
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => asWindow(JSON.parse(l) as Record<string, unknown>));
}
