/**
 * Opened tiers kept between queries. Invariant: a cached tier is reused only while both its tier file
 * (`.mem/index/<tier>.json`: device, inode, size, mtime) and the tracked file list are unchanged, so
 * an answer is exactly what view.ts's openTier would give a fresh process now: an index rebuilt or
 * updated underneath is reloaded at the next query, files edited since are overlaid as cold search
 * overlays them. Segment files are opened once per reload and their dictionary shards stay parsed.
 */
import { tierFileIdentity } from '../index/tier-file.js';
import type { Tier } from '../text/types.js';
import { openTier, type OpenedTier } from '../index/view.js';
import type { FileTracker } from './files.js';

interface Cached {
  key: string;
  /** Undefined when the persisted index was unusable: the server then lets the client answer cold. */
  opened?: OpenedTier;
}

export class TierCache {
  private cache = new Map<Tier, Cached>();

  constructor(
    private readonly workspace: string,
    private readonly files: FileTracker,
    private readonly cfg: { chunkTokens: number; overlapTokens: number },
  ) {}

  /**
   * The tier as a fresh process would open it (do not close it: the cache owns it), or undefined when
   * its index is missing, corrupt or of another version: cold search has its own answer for that.
   */
  async open(tier: Tier): Promise<OpenedTier | undefined> {
    const stamp = tierFileIdentity(this.workspace, tier);
    const key = `${stamp}|${this.files.version}`;
    const hit = this.cache.get(tier);
    if (hit && hit.key === key) return hit.opened;
    hit?.opened?.close();
    this.cache.delete(tier);
    if (stamp === 'none') return undefined;
    let opened: OpenedTier | undefined = await openTier(this.workspace, tier, this.files.current(tier), this.cfg);
    if (opened.problem) {
      opened.close();
      opened = undefined;
    }
    this.cache.set(tier, { key, opened });
    return opened;
  }

  /** Drops a tier (a segment read failed: the next open reads everything anew). */
  forget(tier: Tier): void {
    this.cache.get(tier)?.opened?.close();
    this.cache.delete(tier);
  }

  close(): void {
    for (const c of this.cache.values()) c.opened?.close();
    this.cache.clear();
  }
}
