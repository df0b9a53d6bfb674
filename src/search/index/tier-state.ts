/**
 * What a tier of the index holds, as its tier file records it (tier-file.ts reads and writes it): a
 * head (version, chunking, live segments, dead doc ranges, collection statistics, the manifest's
 * fingerprints) and the manifest. Doc ids count up within an epoch and are never reused, so a dead
 * range stays dead until a rebuild starts a new epoch.
 */
import type { Manifest } from './manifest.js';
import type { Tier } from '../text/types.js';

export interface SegmentRef {
  name: string;
  first: number;
  count: number;
  /**
   * A small segment an incremental update wrote (index-rules.ts): its docs are not kept when their
   * file changes, and enough of them are merged by indexing their files again.
   */
  tail?: true;
  /** A merge's segment of fewer than TAIL_DOCS docs: its docs are kept, and the next merge takes them in. */
  merged?: true;
}

export interface TierHead {
  version: string;
  /** chunkingStamp of the settings the chunks were cut with: an index cut otherwise is rebuilt. */
  chunking: string;
  tier: Tier;
  nextId: number;
  /** Live docs (all segments minus dead ranges). */
  docCount: number;
  /** Sums of live docs' title/body/id lengths, for collection-wide average field lengths. */
  lenSum: [number, number, number];
  segments: SegmentRef[];
  /** Doc ranges [first, count] of files changed or removed since their segment was written. */
  dead: [number, number][];
  deadCount: number;
  updatedAt: string;
  /** New on every rebuild: doc ids are only comparable within one epoch (embedding maps check it). */
  epoch: string;
  /** filesStamp of the manifest (written by serializeTier). */
  stamp?: string;
  /** filesStamp of each manifest bucket's files (manifest.ts bucketStamps). */
  buckets?: string[];
  /** How many files the manifest lists. */
  fileCount?: number;
}

export interface TierState extends TierHead {
  files: Manifest;
}

/** The fingerprints of a manifest: of all its files, and of each bucket's. */
export interface ManifestStamps {
  stamp: string;
  buckets: string[];
}
