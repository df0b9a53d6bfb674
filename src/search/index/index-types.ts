/**
 * What one tier's update (indexer.ts) is asked and reports: its options (the search server's limits
 * and kept manifests among them), its counters and its result. Types only.
 */
import type { WorkspaceWriter } from '../../write/writer.js';
import type { LockOptions } from '../../write/locks.js';
import type { ScannedFile } from './scan.js';
import type { ManifestCache } from './tier-file.js';
import type { TierState } from './tier-state.js';
import type { Tier } from '../text/types.js';

export interface TierCounters {
  files: number;
  unchanged: number;
  changed: number;
  added: number;
  removed: number;
  skipped: number;
  chunksAdded: number;
  chunksRemoved: number;
  /** Chunks of changed files that were the same as before: their docs were kept (chunk-reuse.ts). */
  chunksKept: number;
  /** Unchanged files indexed again to merge the tail segments their docs were in (index-rules.ts TAIL_MERGE). */
  merged: number;
  chunks: number;
  rebuilt: string | null;
  compacted: boolean;
}

export interface IndexOptions {
  rebuild?: boolean;
  /** Runs under the index lock once both tiers are committed (the embedding step). */
  after?: (writer: WorkspaceWriter, states: Record<Tier, TierState>) => Promise<void>;
  onProgress?: (done: number, total: number) => void;
  /** Never use worker threads (after they failed once). */
  oneThread?: boolean;
  /** The files of both tiers as scanWorkspace would list them now (the search server's tracked list); default: a scan. */
  files?: ScannedFile[];
  /** Most files an update may change (added, changed, removed) per tier, and no rebuild: past it, IndexDeclined before anything is written. */
  limit?: number;
  /** Lock settings instead of the configuration's (the search server does not wait for a busy lock). */
  lock?: LockOptions;
  /**
   * Tier states kept from the last update (the search server's): read instead of the tier file while
   * it is unchanged, and updated in place. The caller must clear it when an update fails.
   */
  manifests?: ManifestCache;
}

export interface TierUpdate {
  counters: TierCounters;
  /** Null when no file changed and no `after` step needs the manifest (it was not parsed). */
  state: TierState | null;
  warnings: string[];
}
