/**
 * Opens a tier for one query without writing anything (DESIGN §9.4). The persisted segments are
 * opened lazily; files whose size, mtime or ctime differ from the manifest (and whose content hash really
 * changed) are re-chunked in memory and overlaid, their old docs hidden, so the answer is current and
 * the user is told the index is behind. A missing, corrupt or other-version index (or one chunked
 * with other settings) gives a fully in-memory tier with a notice. The chunker (remark) is imported
 * only in those two cases.
 */
import { DiskSegment, MemorySegment, type Segment } from './segment.js';
import type { BuiltDoc } from './segment-format.js';
import type { ScannedFile } from './scan.js';
import { prepareFold } from '../text/fold.js';
import { readSource } from './source.js';
import { bucketDiff } from './manifest.js';
import { chunkingStamp, deadSet, INDEX_DIR, loadTierHead, tierFile } from './tier-file.js';
import type { TierHead, TierState } from './tier-state.js';
import { filesStamp, sameStat } from './files-stamp.js';
import { lengthsIn, retireDocs } from './tier-edit.js';
import type { ChunkSettings, Tier } from '../text/types.js';

/** A tier as one query ranks it (query/engine.ts): its segments, which docs are dead, and its collection statistics. */
export interface TierView {
  segments: Segment[];
  isDead: (doc: number) => boolean;
  /** The dead doc ranges [first, count] behind isDead (a segment holding none needs no dead check). */
  dead: readonly (readonly [number, number])[];
  docCount: number;
  avgLen: [number, number, number];
}

import path from 'node:path';

export interface OpenedTier {
  tier: Tier;
  view: TierView;
  /** Paths changed since the last `mem index` (overlaid in memory for this query). */
  behind: string[];
  /** Why the persisted index was not used, when it was not. */
  problem?: string;
  problemKind?: 'missing' | 'corrupt' | 'version';
  warnings: string[];
  close(): void;
}

/** Overlays up to this many characters prepare one fold converter for all their text. */
const OVERLAY_FOLD_CHARS = 200_000;

async function buildFor(
  files: ScannedFile[],
  tier: Tier,
  first: number,
  cfg: ChunkSettings,
  warnings: string[],
): Promise<{ docs: BuiltDoc[]; read: number }> {
  const { buildDocs } = await import('./build-docs.js');
  const texts: [ScannedFile, string][] = [];
  for (const f of files) {
    const src = readSource(f.abs, f.path);
    if (src.warning) warnings.push(src.warning);
    if (src.text !== null) texts.push([f, src.text]);
  }
  // A few changed files (the usual overlay) share one small Chinese converter (fold.ts).
  if (texts.reduce((n, [, t]) => n + t.length, 0) <= OVERLAY_FOLD_CHARS) prepareFold(texts.map(([, t]) => t));
  const docs: BuiltDoc[] = [];
  for (const [f, text] of texts) docs.push(...buildDocs(f.path, text, tier, first + docs.length, cfg));
  return { docs, read: files.length };
}

/** Files changed or removed since the manifest was written: only those of buckets whose fingerprint differs (manifest.ts). */
function changedFiles(state: TierState, files: ScannedFile[]): { changed: ScannedFile[]; removed: string[] } {
  const diff = bucketDiff(state.buckets, files);
  const changed = files.filter((f, i) => {
    if (!diff.staleAt(i)) return false;
    const prev = state.files.get(f.path);
    return !(prev && (sameStat(prev, f) || readSource(f.abs, f.path).hash === prev.hash));
  });
  return { changed, removed: diff.removed(state.files) };
}

/** A tier whose files match its manifest (same fingerprint): the persisted segments as they are. */
function openHead(workspace: string, head: TierHead): OpenedTier {
  const disk: Segment[] = head.segments.map((s) =>
    DiskSegment.open(path.join(workspace, INDEX_DIR), s.name, s.first, s.count),
  );
  return {
    tier: head.tier,
    behind: [],
    warnings: [],
    view: {
      segments: disk,
      isDead: deadSet(head.dead),
      dead: head.dead,
      docCount: head.docCount,
      avgLen: avg(head.lenSum, head.docCount),
    },
    close: () => disk.forEach((s) => s.close()),
  };
}

export async function openTier(
  workspace: string,
  tier: Tier,
  files: ScannedFile[],
  cfg: ChunkSettings,
  broken?: string,
): Promise<OpenedTier> {
  const warnings: string[] = [];
  const head = broken
    ? { problem: 'corrupt' as const, detail: broken }
    : loadTierHead(workspace, tier, chunkingStamp(cfg));
  // A scan that matches the manifest's fingerprint changed nothing: the manifest is not even parsed.
  if ('head' in head && head.head.stamp === filesStamp(files)) return openHead(workspace, head.head);
  const load = 'head' in head ? head.manifest() : head;
  const state = 'state' in load ? load.state : undefined;
  let problem = 'state' in load ? undefined : load;
  let dirty: { changed: ScannedFile[]; removed: string[] } | undefined;
  try {
    if (state) dirty = changedFiles(state, files);
  } catch (err) {
    // A manifest bucket that does not parse: as a corrupt tier file.
    problem = { problem: 'corrupt', detail: `${tierFile(tier)}: ${(err as Error).message}` };
  }
  if (!state || !dirty) {
    const { docs } = await buildFor(files, tier, 0, cfg, warnings);
    const mem = new MemorySegment(docs, 0);
    return {
      tier,
      behind: [],
      problem: problem?.detail,
      problemKind: problem?.problem,
      warnings,
      view: {
        segments: [mem],
        isDead: () => false,
        dead: [],
        docCount: docs.length,
        avgLen: avg(mem.lenSum, docs.length),
      },
      close: () => {},
    };
  }
  const disk: Segment[] = state.segments.map((s) =>
    DiskSegment.open(path.join(workspace, INDEX_DIR), s.name, s.first, s.count),
  );
  const { changed, removed } = dirty;
  // The persisted counts less the docs of changed and removed files (as an update retires them), plus their new docs.
  const live = {
    dead: [...state.dead],
    deadCount: state.deadCount,
    docCount: state.docCount,
    lenSum: [...state.lenSum] as [number, number, number],
  };
  const behind = [...changed.map((f) => f.path), ...removed];
  const lengthsOf = lengthsIn(disk);
  for (const p of behind) {
    const prev = state.files.get(p);
    if (prev) retireDocs(live, prev, lengthsOf);
  }
  const segments = [...disk];
  if (changed.length) {
    const { docs } = await buildFor(changed, tier, state.nextId, cfg, warnings);
    const mem = new MemorySegment(docs, state.nextId);
    segments.push(mem);
    live.docCount += docs.length;
    for (let i = 0; i < 3; i++) live.lenSum[i] = live.lenSum[i]! + mem.lenSum[i]!;
  }
  return {
    tier,
    behind,
    warnings,
    view: {
      segments,
      isDead: deadSet(live.dead),
      dead: live.dead,
      docCount: live.docCount,
      avgLen: avg(live.lenSum, live.docCount),
    },
    close: () => disk.forEach((s) => s.close()),
  };
}

function avg(sum: [number, number, number], n: number): [number, number, number] {
  return n ? [sum[0] / n, sum[1] / n, sum[2] / n] : [1, 1, 1];
}
