/**
 * `mem forget --hard` and the archive tier: the windows that cite a removed entry's turns (or quote
 * its statement) lose their text and their postings. Each touched segment is rebuilt under a new
 * name with those docs as tombstones (doc numbers stay put), the state is written, then the old
 * files go. The purged turn ranges are remembered, so a later re-read of a rewritten transcript does
 * not index them again. The transcript files themselves belong to the agent and are not touched.
 */
import type { ArchiveDoc } from './format.js';
import type { ArchiveState } from './store.js';
import { legacyWindows, type LegacyState } from './legacy.js';
import { isOutdated, loadState, segmentWindows, serialiseState, STATE_FILE } from './store.js';
import { removeUnlisted, writeSegment } from './segment-files.js';
import { readVectors } from './vectors.js';
import fs from 'node:fs';
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
  const loaded = loadState(workspace);
  const res: PurgeResult = { docs: 0, segments: 0 };
  if (!loaded || !targets.length) return res;
  // An older memfold's archive is not searched: its purge is remembered, and the rebuild leaves the turns out.
  if (isOutdated(loaded)) return purgeOutdated(workspace, writer, targets, dryRun);
  const state = loaded;
  const fileOf = new Map(Object.entries(state.files).map(([file, f]) => [f.no, file]));
  const hitRanges: ArchiveState['purged'] = [];
  for (const [i, s] of state.segments.entries()) {
    const docs = segmentWindows(workspace, s);
    let n = 0;
    const vectors = readVectors(workspace, s);
    const next = docs.map((d, at) => {
      if (d.purged || !targets.some((t) => hits(d, fileOf.get(d.f), t))) return d;
      n++;
      // Its turns, wherever the target was found (a quote in another file too): a rebuild leaves them out.
      const file = fileOf.get(d.f);
      if (file) hitRanges.push({ file, a: d.a, b: d.b });
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
  state.purged.push(...targetRanges(targets), ...hitRanges);
  await writer.write(STATE_FILE, serialiseState(state));
  await removeUnlisted(workspace, writer, state);
  return res;
}

const targetRanges = (targets: PurgeTarget[]) =>
  targets.filter((t) => t.file && t.b >= t.a).map(({ file, a, b }) => ({ file, a, b }));

/** An older version's state: only its `purged` list grows (the next `mem archive` rebuilds without those turns). */
async function purgeOutdated(
  workspace: string,
  writer: WorkspaceWriter,
  targets: PurgeTarget[],
  dryRun: boolean,
): Promise<PurgeResult> {
  const raw = JSON.parse(await fs.promises.readFile(writer.resolve(STATE_FILE), 'utf8')) as LegacyState;
  const ranges = targetRanges(targets);
  let docs = 0;
  for (const { d, file } of legacyWindows(workspace, raw)) {
    if (d.purged || !targets.some((t) => hits(d, file, t))) continue;
    docs++;
    if (file) ranges.push({ file, a: d.a, b: d.b });
  }
  if (dryRun || !ranges.length) return { docs, segments: 0 };
  raw.purged = [...(Array.isArray(raw.purged) ? raw.purged : []), ...ranges];
  await writer.write(STATE_FILE, JSON.stringify(raw) + '\n');
  return { docs, segments: 0 };
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
