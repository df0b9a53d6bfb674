/**
 * "Superseded by" across tiers, as search.ts's successorAnywhere reads it for a tier the query did
 * not open: the persisted segments and dead ranges only, a damaged index losing only the hint.
 */
import path from 'node:path';
import { DiskSegment, type Segment } from '../index/segment.js';
import { deadSet, INDEX_DIR, loadTierHead } from '../index/tier-file.js';
import type { Tier } from '../text/types.js';

export function successorInIndex(
  workspace: string,
  tier: Tier,
  id: string,
  find: (segs: Segment[], isDead: (d: number) => boolean, id: string) => string | null,
): string | null {
  const load = loadTierHead(workspace, tier);
  if (!('head' in load)) return null;
  const segs = load.head.segments.map((x) =>
    DiskSegment.open(path.join(workspace, INDEX_DIR), x.name, x.first, x.count),
  );
  try {
    return find(segs, deadSet(load.head.dead), id);
  } catch {
    return null;
  } finally {
    segs.forEach((x) => x.close());
  }
}
