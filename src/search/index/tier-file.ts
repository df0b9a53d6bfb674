/**
 * The tier file `.mem/index/<tier>.json`: version stamp, live segments, dead doc ranges, collection
 * statistics and the manifest (path → size, mtime, ctime, content hash, doc runs; their types are in
 * tier-state.ts). One atomic write of this file commits an update: segment files it does not name are
 * invisible, so a killed `mem index` leaves the previous index whole, and the manifest can never
 * disagree with the segments.
 *
 * Lines of JSON: the head (everything but the manifest, with the manifest's fingerprint and its
 * buckets' fingerprints, files-stamp.ts), then the manifest's buckets, a line each (manifest.ts). A
 * search or an update whose scan matches the fingerprint parses the head only; one whose scan
 * differs parses the buckets whose fingerprints differ.
 */
import fs from 'node:fs';
import path from 'node:path';
import { docRuns, docsOf } from './doc-runs.js';
import { BUCKETS, Manifest } from './manifest.js';
import { SEGMENT_EXTS } from './segment-format.js';
import type { ChunkSettings, Tier } from '../text/types.js';
import type { ManifestStamps, TierHead, TierState } from './tier-state.js';

/** Bump when the tokenizer, chunker or layout changes: an index of another version is rebuilt. */
export const INDEX_VERSION = 'memfold-index/6 minisearch@7.2.0 tokenizer/5';
export const INDEX_DIR = '.mem/index';

export function tierFile(tier: Tier): string {
  return `${INDEX_DIR}/${tier}.json`;
}

/** The configuration that decides a file's chunks, as the tier head records it. */
export function chunkingStamp(s: ChunkSettings): string {
  return `tokens ${s.chunkTokens}/${s.overlapTokens}`;
}

export function emptyTier(tier: Tier, chunking: string): TierState {
  return {
    version: INDEX_VERSION,
    chunking,
    tier,
    nextId: 0,
    docCount: 0,
    lenSum: [0, 0, 0],
    segments: [],
    dead: [],
    deadCount: 0,
    files: Manifest.of(),
    updatedAt: '',
    epoch: `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`,
  };
}

export type TierProblem = { problem: 'missing' | 'corrupt' | 'version'; detail: string };
export type TierLoad = { state: TierState } | TierProblem;
/** A tier file read as far as its head; `manifest()` parses the rest. */
export type TierHeadLoad = { head: TierHead; manifest: () => TierLoad } | TierProblem;

/** `stamps`: the manifest's fingerprints, those of the scan it was checked to list. */
export function serializeTier(state: TierState, stamps: ManifestStamps): Buffer {
  const { files, ...head } = state;
  const lines = [Buffer.from(JSON.stringify({ ...head, ...stamps, fileCount: files.size })), ...files.serialize()];
  return Buffer.concat(lines.flatMap((l) => [l, NEWLINE]));
}

const NEWLINE = Buffer.from('\n');

/** Which version of a tier file is on disk (device, inode, size, mtime): 'none' when there is none. */
export function tierFileIdentity(workspace: string, tier: Tier): string {
  const st = fs.statSync(path.join(workspace, tierFile(tier)), { throwIfNoEntry: false, bigint: true });
  return st ? `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}` : 'none';
}

/**
 * Tier states a long-lived indexer (the search server) keeps between updates, each with the identity
 * of the tier file it was read from or written as: reused only while that file is unchanged.
 */
export type ManifestCache = Map<Tier, { identity: string; state: TierState }>;

function parsed(text: string, what: string, tier: Tier): { value: unknown } | TierProblem {
  try {
    return { value: JSON.parse(text) };
  } catch (err) {
    return { problem: 'corrupt', detail: `${tierFile(tier)} ${what} is not valid JSON (${(err as Error).message})` };
  }
}

/** The head line is read in pieces of this size (a head is about a kilobyte; the manifest after it, a megabyte). */
const HEAD_READ = 64 * 1024;

/** The tier file's first line (the head) without reading the manifest behind it; undefined when the file cannot be read. */
function readHeadLine(file: string): string | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const parts: Buffer[] = [];
    for (let at = 0; ;) {
      const buf = Buffer.allocUnsafe(HEAD_READ);
      const n = fs.readSync(fd, buf, 0, HEAD_READ, at);
      const nl = buf.subarray(0, n).indexOf(10);
      parts.push(buf.subarray(0, nl < 0 ? n : nl));
      if (nl >= 0 || n === 0) return Buffer.concat(parts).toString('utf8');
      at += n;
    }
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

/** The head of a tier file's first line, checked: version, chunking, segments present. */
function checkedHead(
  line: string,
  workspace: string,
  tier: Tier,
  chunking: string | undefined,
): { head: TierHead } | TierProblem {
  const first = parsed(line, 'head', tier);
  if (!('value' in first)) return first;
  const head = first.value as TierHead | null;
  if (!head || typeof head !== 'object' || head.version !== INDEX_VERSION) {
    return {
      problem: 'version',
      detail: `${tierFile(tier)} was written by another index version (${String(head?.version)})`,
    };
  }
  if (chunking !== undefined && head.chunking !== chunking) {
    return {
      problem: 'version',
      detail: `${tierFile(tier)} was chunked with other settings (${String(head.chunking)}, now ${chunking})`,
    };
  }
  if (
    !Array.isArray(head.segments) ||
    !Array.isArray(head.dead) ||
    !Array.isArray(head.buckets) ||
    head.buckets.length !== BUCKETS ||
    !Number.isInteger(head.fileCount) ||
    head.fileCount! < 0
  ) {
    return { problem: 'corrupt', detail: `${tierFile(tier)} lacks segments, dead ranges or manifest fingerprints` };
  }
  // Docs come from files: a manifest said to list none while docs live is damaged.
  if (head.fileCount === 0 && head.docCount > 0)
    return { problem: 'corrupt', detail: `${tierFile(tier)} lists no files but ${head.docCount} docs` };
  for (const s of head.segments) {
    for (const ext of SEGMENT_EXTS) {
      if (!fs.existsSync(path.join(workspace, INDEX_DIR, `${s.name}.${ext}`))) {
        return { problem: 'corrupt', detail: `${INDEX_DIR}/${s.name}.${ext} is missing` };
      }
    }
  }
  return { head };
}

/**
 * `chunking`: the chunkingStamp the caller chunks with; a tier cut otherwise is a 'version' problem.
 * Only the head line is read (a search whose scan matches the fingerprint needs nothing else);
 * `manifest()` reads the whole file, and should the tier file have been replaced in between (an
 * index run committing), it answers from the new file, head and manifest together.
 */
export function loadTierHead(workspace: string, tier: Tier, chunking?: string, cache?: ManifestCache): TierHeadLoad {
  const hit = cache?.get(tier);
  if (
    hit &&
    hit.identity === tierFileIdentity(workspace, tier) &&
    (chunking === undefined || hit.state.chunking === chunking)
  ) {
    return { head: hit.state, manifest: () => ({ state: hit.state }) };
  }
  const file = path.join(workspace, tierFile(tier));
  const line = readHeadLine(file);
  if (line === undefined) return { problem: 'missing', detail: `${tierFile(tier)} does not exist` };
  const checked = checkedHead(line, workspace, tier, chunking);
  if (!('head' in checked)) return checked;
  const manifest = (): TierLoad => {
    let bytes: Buffer;
    try {
      bytes = fs.readFileSync(file);
    } catch {
      return { problem: 'missing', detail: `${tierFile(tier)} does not exist` };
    }
    // Lines as bytes: the manifest's are decoded only when their bucket is parsed (manifest.ts).
    const lines: Buffer[] = [];
    for (let at = 0; at < bytes.length;) {
      const nl = bytes.indexOf(10, at);
      lines.push(bytes.subarray(at, nl < 0 ? bytes.length : nl));
      at = nl < 0 ? bytes.length : nl + 1;
    }
    const first = lines[0]?.toString('utf8') ?? '';
    const head = first === line ? checked : checkedHead(first, workspace, tier, chunking);
    if (!('head' in head)) return head;
    if (lines.length !== BUCKETS + 1 || bytes[bytes.length - 1] !== 10)
      return {
        problem: 'corrupt',
        detail: `${tierFile(tier)} manifest is cut short or overlong (${lines.length} lines, not ${BUCKETS + 1})`,
      };
    return { state: { ...head.head, files: Manifest.read(lines.slice(1), head.head.fileCount!) } };
  };
  return { head: checked.head, manifest };
}

/** Live doc ids of a tier, file by file. */
export function liveDocs(state: TierState): number[] {
  const out: number[] = [];
  for (const [, f] of state.files.entries()) docsOf(docRuns(f), out);
  return out;
}

/** A membership test for dead doc ranges. */
export function deadSet(ranges: [number, number][]): (doc: number) => boolean {
  if (!ranges.length) return () => false;
  const dead = new Set<number>();
  for (const [first, count] of ranges) for (let d = first; d < first + count; d++) dead.add(d);
  return (doc) => dead.has(doc);
}
