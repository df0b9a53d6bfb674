/**
 * `mem forget --hard` and the archive tier: the windows that cite a removed entry's turns (or quote
 * its statement) lose their text and their postings. Each touched segment is rebuilt under a new
 * name with those docs as tombstones (doc numbers stay put), the state is written, then the old
 * files go. The purged turn ranges are remembered, so a later re-read of a rewritten transcript does
 * not index them again. The transcript files themselves belong to the agent and are not touched.
 */
import type { ArchiveDoc } from './format.js';
import { loadState, SegmentReader, serialiseState, STATE_FILE } from './store.js';
import { removeUnlisted, writeSegment } from './segment-files.js';
import { readVectors } from './vectors.js';
import path from 'node:path';
import { getField, getSource } from '../entries/model.js';
import type { EntryRecord } from '../entries/store.js';
import { expandHome } from '../workspace/locate.js';
import type { WorkspaceWriter } from '../write/writer.js';
import { withLock, type LockOptions } from '../write/locks.js';

export interface PurgeTarget {
  /** Absolute transcript path. */
  file: string;
  a: number;
  b: number;
  /** The entry's statement: a window quoting it (20+ characters) is purged wherever it is. */
  quote?: string;
}

export interface PurgeResult {
  docs: number;
  segments: number;
}

const hits = (d: ArchiveDoc, file: string | undefined, t: PurgeTarget) =>
  (file === t.file && d.a <= t.b && d.b >= t.a) ||
  (!!t.quote && t.quote.trim().length >= 20 && d.x.includes(t.quote.trim()));

/** Plans and applies the purge under the archive lock (an update running meanwhile cannot undo it); `dryRun` only counts. */
export async function purgeArchive(
  workspace: string,
  writer: WorkspaceWriter,
  targets: PurgeTarget[],
  locks: LockOptions,
  dryRun = false,
): Promise<PurgeResult> {
  return withLock(workspace, 'archive', locks, () => purge(workspace, writer, targets, dryRun));
}

async function purge(
  workspace: string,
  writer: WorkspaceWriter,
  targets: PurgeTarget[],
  dryRun: boolean,
): Promise<PurgeResult> {
  const state = loadState(workspace);
  const res: PurgeResult = { docs: 0, segments: 0 };
  if (!state || !targets.length) return res;
  const fileOf = new Map(Object.entries(state.files).map(([file, f]) => [f.no, file]));
  for (const [i, s] of state.segments.entries()) {
    const reader = SegmentReader.open(workspace, s.name, s.docs);
    let docs: ArchiveDoc[];
    try {
      docs = reader.allDocs();
    } finally {
      reader.close();
    }
    let n = 0;
    const vectors = readVectors(workspace, s);
    const next = docs.map((d, at) => {
      if (d.purged || !targets.some((t) => hits(d, fileOf.get(d.f), t))) return d;
      n++;
      vectors?.rows.fill(0, at * vectors.dims, (at + 1) * vectors.dims);
      return { f: d.f, s: d.s, a: d.a, b: d.b, t: d.t, o: d.o, e: d.e, x: '', purged: true as const };
    });
    if (!n) continue;
    res.docs += n;
    res.segments++;
    if (dryRun) continue;
    state.segments[i] = await writeSegment(writer, state, next, vectors);
  }
  if (dryRun) return res;
  state.purged.push(...targets.filter((t) => t.file && t.b >= t.a).map(({ file, a, b }) => ({ file, a, b })));
  await writer.write(STATE_FILE, serialiseState(state));
  await removeUnlisted(workspace, writer, state);
  return res;
}

/** Purge targets of entries: their cited turns (from `source`) and their statement. */
export function targetsOf(workspace: string, records: EntryRecord[]): PurgeTarget[] {
  const out: PurgeTarget[] = [];
  for (const r of records) {
    const src = getSource(r.entry);
    const quote = getField(r.entry, 'conclusion') ?? '';
    const m = /^(\d+)(?:-(\d+))?$/.exec(src?.message_range?.trim() ?? '');
    const file = src?.session_path ? path.resolve(workspace, expandHome(src.session_path)) : '';
    if (m) out.push({ file, a: Number(m[1]), b: Number(m[2] ?? m[1]), quote });
    else if (quote) out.push({ file: '', a: 0, b: -1, quote });
  }
  return out;
}
