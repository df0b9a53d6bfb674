/**
 * Where one tier's update starts (indexer.ts): done already when the manifest's fingerprint is the
 * scan's and every segment file is whole, so an unchanged `mem index` reads and writes nothing;
 * otherwise the state as stored, or an empty one to rebuild. A damaged segment file (truncated or
 * deleted since it was written) rebuilds the tier: its docs cannot be told apart from the rest.
 */
import path from 'node:path';
import type { LoadedConfig } from '../../config/load.js';
import type { ScannedFile } from './scan.js';
import { segmentProblem } from './segment-check.js';
import { chunkingStamp, emptyTier, INDEX_DIR, loadTierHead } from './tier-file.js';
import type { TierState } from './tier-state.js';
import { filesStamp } from './files-stamp.js';
import type { Tier } from '../text/types.js';
import type { IndexOptions, TierCounters, TierUpdate } from './index-types.js';

/**
 * Where an update starts: done already when no file changed (the manifest's fingerprint is the
 * scan's and the segments are whole); otherwise the tier's state as stored, or an empty one to
 * rebuild (asked for, missing, unreadable, or a segment file damaged since it was written).
 */
export function startingState(
  workspace: string,
  loaded: LoadedConfig,
  tier: Tier,
  files: ScannedFile[],
  opts: IndexOptions,
  c: TierCounters,
  warnings: string[],
): { done: TierUpdate } | { prev: TierState; scanStamp: string } {
  const chunking = chunkingStamp(loaded.config.search);
  const head = loadTierHead(workspace, tier, chunking, opts.manifests);
  // A segment file damaged since it was written (truncated, deleted) makes the tier rebuild.
  const damage =
    'head' in head
      ? head.head.segments.map((ref) => segmentProblem(path.join(workspace, INDEX_DIR), ref)).find((p) => p !== null)
      : undefined;
  const scanStamp = filesStamp(files);
  if (!opts.rebuild && 'head' in head && !damage && head.head.stamp === scanStamp) {
    // No file changed (the manifest's fingerprint matches the scan): nothing to read or write.
    const load = opts.after ? head.manifest() : undefined;
    if (!load || 'state' in load)
      return {
        done: {
          counters: { ...c, unchanged: files.length, chunks: head.head.docCount },
          state: load?.state ?? null,
          warnings,
        },
      };
  }
  const load = 'head' in head ? head.manifest() : head;
  let prev: TierState;
  if (opts.rebuild) {
    prev = emptyTier(tier, chunking);
    c.rebuilt = 'requested';
  } else if ('state' in load) {
    if (damage) {
      prev = emptyTier(tier, chunking);
      c.rebuilt = 'corrupt';
      warnings.push(`${INDEX_DIR}/${damage}: rebuilt the ${tier} index`);
    } else prev = load.state;
  } else {
    prev = emptyTier(tier, chunking);
    c.rebuilt = load.problem;
    if (load.problem !== 'missing') warnings.push(`${load.detail}: rebuilt the ${tier} index`);
  }
  return { prev, scanStamp };
}
