/**
 * The tier file `.mem/index/<tier>.json`: version stamp, live segments, dead doc ranges, collection
 * statistics and the manifest (path → size, mtime, content hash, doc range). One atomic write of
 * this file commits an update: segment files it does not name are invisible, so a killed `mem index`
 * leaves the previous index whole, and the manifest can never disagree with the segments.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Tier } from './types.js';

/** Bump when the tokenizer, chunker or layout changes: an index of another version is rebuilt. */
export const INDEX_VERSION = 'memfold-index/1 minisearch@7.2.0 tokenizer/1';
export const INDEX_DIR = '.mem/index';

export interface FileState {
  size: number;
  mtimeMs: number;
  hash: string;
  /** Docs first .. first+count-1 are this file's chunks. */
  first: number;
  count: number;
  warning?: string;
}

export interface SegmentRef {
  name: string;
  first: number;
  count: number;
}

export interface TierState {
  version: string;
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
  files: Record<string, FileState>;
  updatedAt: string;
  /** New on every rebuild: doc ids are only comparable within one epoch (embedding maps check it). */
  epoch: string;
}

export function tierFile(tier: Tier): string {
  return `${INDEX_DIR}/${tier}.json`;
}

export function emptyTier(tier: Tier): TierState {
  return { version: INDEX_VERSION, tier, nextId: 0, docCount: 0, lenSum: [0, 0, 0], segments: [], dead: [], deadCount: 0, files: {}, updatedAt: '', epoch: `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}` };
}

export type TierLoad = { state: TierState } | { problem: 'missing' | 'corrupt' | 'version'; detail: string };

export function loadTier(workspace: string, tier: Tier): TierLoad {
  const file = path.join(workspace, tierFile(tier));
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return { problem: 'missing', detail: `${tierFile(tier)} does not exist` };
  }
  let state: TierState;
  try {
    state = JSON.parse(text) as TierState;
  } catch (err) {
    return { problem: 'corrupt', detail: `${tierFile(tier)} is not valid JSON (${(err as Error).message})` };
  }
  if (!state || typeof state !== 'object' || state.version !== INDEX_VERSION) {
    return { problem: 'version', detail: `${tierFile(tier)} was written by another index version (${String(state?.version)})` };
  }
  if (!Array.isArray(state.segments) || !state.files || typeof state.files !== 'object' || !Array.isArray(state.dead)) {
    return { problem: 'corrupt', detail: `${tierFile(tier)} lacks segments, files or dead ranges` };
  }
  for (const s of state.segments) {
    for (const ext of ['dict', 'post', 'didx', 'docs']) {
      if (!fs.existsSync(path.join(workspace, INDEX_DIR, `${s.name}.${ext}`))) {
        return { problem: 'corrupt', detail: `${INDEX_DIR}/${s.name}.${ext} is missing` };
      }
    }
  }
  return { state };
}

/** Live doc ids of a tier, file by file. */
export function liveDocs(state: TierState): number[] {
  const out: number[] = [];
  for (const f of Object.values(state.files)) for (let d = f.first; d < f.first + f.count; d++) out.push(d);
  return out;
}

/** A membership test for dead doc ranges. */
export function deadSet(ranges: [number, number][]): (doc: number) => boolean {
  if (!ranges.length) return () => false;
  const dead = new Set<number>();
  for (const [first, count] of ranges) for (let d = first; d < first + count; d++) dead.add(d);
  return (doc) => dead.has(doc);
}
