/**
 * One tier's update for `mem index` (update.ts runs both under the `index` lock): brings the tier's
 * part of `.mem/index` up to date from dirty files only (DESIGN §6). It diffs the manifest (bucket
 * fingerprints, then size, mtime and ctime, then content hash) against the files, re-chunks changed
 * and added files, puts the chunks that are not the same as before into one new segment
 * (chunk-reuse.ts), marks the docs of dropped chunks and removed files dead, and commits with one
 * atomic write of the tier file. Small segments are merged (index-rules.ts tailPlan); too many dead
 * docs or segments → the tier is compacted (rebuilt). Every write goes through WorkspaceWriter with
 * the `index` job, which may write only `.mem/`. Where an update starts (nothing to do, the stored
 * state, or an empty tier to rebuild) is tier-start.ts.
 */
import path from 'node:path';
import type { LoadedConfig } from '../../config/load.js';
import type { WorkspaceWriter } from '../../write/writer.js';
import { addChunks, fileChunks, foldedText } from './build-docs.js';
import { reuseChunks, type OldDocs } from './chunk-reuse.js';
import { prepareFold } from '../text/fold.js';
import type { ScannedFile } from './scan.js';
import { DiskSegment } from './segment.js';
import { SegmentBuilder } from './segment-builder.js';
import { removeUnreferenced, sizedRef } from './segment-check.js';
import { IMPACT_SORT_MIN, type SegmentFiles } from './segment-format.js';
import { buildParallel, buildThreads, ParallelBuildError } from './parallel-build.js';
import { readSource } from './source.js';
import { docRuns, docsOf, runsOf } from './doc-runs.js';
import { INDEX_DIR, serializeTier, tierFile, tierFileIdentity } from './tier-file.js';
import type { TierState } from './tier-state.js';
import { startingState } from './tier-start.js';
import { manifestStat, sameStat } from './files-stamp.js';
import { bucketDiff } from './manifest.js';
import { declineBeyond, FLUSH_DOCS, IndexDeclined, needsCompaction, smallSegment, tailPlan } from './index-rules.js';
import { dropEmptySegments, lengthsIn, recordsIn, retireDocs, retireRuns } from './tier-edit.js';
import type { Tier } from '../text/types.js';
import type { IndexOptions, TierCounters, TierUpdate } from './index-types.js';

export type { IndexOptions, TierCounters, TierUpdate } from './index-types.js';

export async function updateTier(
  workspace: string,
  loaded: LoadedConfig,
  writer: WorkspaceWriter,
  tier: Tier,
  files: ScannedFile[],
  opts: IndexOptions,
  progress: () => void,
): Promise<TierUpdate> {
  const warnings: string[] = [];
  const c: TierCounters = {
    files: files.length,
    unchanged: 0,
    changed: 0,
    added: 0,
    removed: 0,
    skipped: 0,
    chunksAdded: 0,
    chunksRemoved: 0,
    chunksKept: 0,
    merged: 0,
    chunks: 0,
    rebuilt: null,
    compacted: false,
  };
  const start = startingState(workspace, loaded, tier, files, opts, c, warnings);
  if ('done' in start) return start.done;
  const { prev, scanStamp } = start;
  const prevCount = prev.files.size;
  if (opts.limit !== undefined) declineBeyond(opts.limit, tier, prev, prevCount, files, c.rebuilt);
  const plan = tailPlan(prev);
  if (plan.merge.size && opts.limit !== undefined)
    throw new IndexDeclined(`the ${tier} index is due for a merge of its ${plan.tails} small segments`);
  const dir = path.join(workspace, INDEX_DIR);
  const disk = prev.segments.map((s) => DiskSegment.open(dir, s.name, s.first, s.count));
  // prev was read for this update alone: its manifest is updated in place (copying 7,000 entries cost more than the rest).
  const next: TierState = { ...prev, dead: [...prev.dead], lenSum: [...prev.lenSum], segments: [...prev.segments] };
  let builder = new SegmentBuilder(next.nextId);
  const writeSegment = async (first: number, count: number, seg: SegmentFiles, lenSum: [number, number, number]) => {
    const name = `${tier}-${first}-${Date.now().toString(36)}`;
    // At once: each waits for its fsync, and none is visible before the tier file names it.
    await Promise.all(Object.entries(seg).map(([ext, data]) => writer.write(`${INDEX_DIR}/${name}.${ext}`, data)));
    next.segments.push({
      ...sizedRef(name, first, count, seg),
      ...smallSegment(prevCount > 0, plan.merge.size > 0, count),
    });
    next.docCount += count;
    c.chunksAdded += count;
    for (let i = 0; i < 3; i++) next.lenSum[i] = next.lenSum[i]! + lenSum[i]!;
  };
  // Docs are written in segments of at most about FLUSH_DOCS, so a rebuild's memory stays bounded.
  const flush = async () => {
    if (!builder.count) return;
    await writeSegment(builder.first, builder.count, builder.finish(), builder.lenSum);
    builder = new SegmentBuilder(next.nextId, IMPACT_SORT_MIN, builder);
  };
  // Every file of a tier built from scratch is new: worker threads may share the work (same segments).
  const threads = opts.oneThread || prevCount ? 0 : buildThreads(files);
  const buildAll = () =>
    buildParallel(files, tier, loaded.config.search, next.nextId, threads, FLUSH_DOCS, async (g) => {
      if (g.first !== next.nextId)
        throw new Error(`parallel build: group starts at ${g.first}, expected ${next.nextId}`);
      g.files.forEach((f, i) => {
        const b = g.built[i]!;
        progress();
        c.added++;
        if (b.warning) warnings.push(b.warning);
        if (b.skipped) c.skipped++;
        next.files.set(f.path, {
          ...manifestStat(f),
          hash: b.hash,
          first: next.nextId,
          count: b.count,
          ...(b.warning ? { warning: b.warning } : {}),
        });
        next.nextId += b.count;
      });
      if (g.segment) await writeSegment(g.first, g.count, g.segment, g.lenSum);
    });
  const lengthsOf = lengthsIn(disk);
  const oldDocs: OldDocs = {
    record: recordsIn(disk),
    // The docs added now go into the builder's segment; the others lie in the tier's segments.
    startsSegment: (doc) => doc === builder.first || next.segments.some((s) => s.first === doc),
    // A merged file keeps its docs outside the segments being merged, like any changed file.
    keepable: (doc) => !plan.moving(doc),
  };
  const kill = (p: string) => {
    const old = prev.files.get(p);
    if (!old) return;
    next.files.delete(p);
    c.chunksRemoved += retireDocs(next, old, lengthsOf);
  };
  // A manifest bucket whose fingerprint is the scan's lists its files as they are: only the files of
  // the other buckets are looked at (with a manifest of 7,000 files, parsing it all was most of the work).
  const diff = bucketDiff(prev.buckets, files);
  try {
    if (threads) {
      try {
        await buildAll();
      } catch (err) {
        if ((err as { name?: string }).name === 'MemError' || (err as NodeJS.ErrnoException).code === 'ELOCKED')
          throw err;
        throw new ParallelBuildError((err as Error).message);
      }
    }
    const incremental = prevCount > 0;
    for (let i = 0; i < (threads ? 0 : files.length); i++) {
      const f = files[i]!;
      progress();
      const merging = plan.merge.has(f.path);
      if (!merging && !diff.staleAt(i)) {
        c.unchanged++;
        continue;
      }
      const old = prev.files.get(f.path);
      if (!merging && old && sameStat(old, f)) {
        c.unchanged++;
        continue;
      }
      const src = readSource(f.abs, f.path);
      if (!merging && old && old.hash === src.hash) {
        next.files.set(f.path, { ...old, ...manifestStat(f) });
        c.unchanged++;
        continue;
      }
      if (old && old.hash === src.hash) c.merged++;
      else if (old) c.changed++;
      else c.added++;
      if (src.warning) warnings.push(src.warning);
      if (src.text === null) {
        c.skipped++;
        if (old) kill(f.path);
        next.files.set(f.path, {
          ...manifestStat(f),
          hash: src.hash,
          first: next.nextId,
          count: 0,
          ...(src.warning ? { warning: src.warning } : {}),
        });
      } else {
        const chunks = fileChunks(f.path, src.text, loaded.config.search);
        // A changed file's unchanged chunks keep their docs; the rest are indexed anew.
        const reuse = old ? reuseChunks(chunks, tier, docsOf(docRuns(old)), oldDocs) : undefined;
        if (reuse) c.chunksRemoved += retireRuns(next, reuse.retired, lengthsOf);
        const docs = reuse?.kept ?? chunks.map(() => -1);
        const fresh = chunks.filter((_, i) => docs[i]! < 0);
        c.chunksKept += chunks.length - fresh.length;
        // An update of a few files folds them with one small converter (fold.ts), not the full
        // one: building that costs more than the rest of a one-file `mem index`.
        if (incremental) prepareFold(fresh.map(foldedText));
        addChunks(builder, fresh, tier);
        for (let i = 0; i < docs.length; i++) if (docs[i]! < 0) docs[i] = next.nextId++;
        const runs = runsOf(docs, oldDocs.startsSegment);
        next.files.set(f.path, {
          ...manifestStat(f),
          hash: src.hash,
          first: runs[0]?.[0] ?? next.nextId,
          count: docs.length,
          ...(runs.length > 1 ? { runs } : {}),
          ...(src.warning ? { warning: src.warning } : {}),
        });
      }
      if (builder.count >= FLUSH_DOCS) await flush();
    }
    await flush();
    // Files of the manifest that the scan no longer lists: only in buckets whose fingerprint changed.
    for (const p of prevCount ? diff.removed(prev.files) : []) {
      c.removed++;
      kill(p);
    }
  } finally {
    disk.forEach((s) => s.close());
  }
  dropEmptySegments(next);
  c.chunks = next.docCount;
  // Past the fingerprint check something differs, if only an mtime (a touched file): always written.
  next.updatedAt = new Date().toISOString();
  // The manifest now lists the scan, each file with the stat the scan gave (set from it, or kept as
  // equal to it) and no other: its fingerprint is the scan's (a test checks after every kind of update).
  next.stamp = scanStamp;
  next.buckets = diff.stamps;
  await writer.write(tierFile(tier), serializeTier(next, { stamp: scanStamp, buckets: diff.stamps }));
  opts.manifests?.set(tier, { identity: tierFileIdentity(workspace, tier), state: next });
  if (needsCompaction(next) && !opts.rebuild) {
    const again = await updateTier(workspace, loaded, writer, tier, files, { rebuild: true }, () => {});
    return { counters: { ...c, compacted: true }, state: again.state, warnings };
  }
  removeUnreferenced(writer, tier, next);
  return { counters: c, state: next, warnings };
}
