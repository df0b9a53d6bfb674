/**
 * A tier's manifest (path → size, mtime, ctime, content hash, docs), kept in the tier file as one
 * line of JSON per bucket (a path's bucket: FNV-1a of the path, mod BUCKETS), the head recording
 * each bucket's fingerprint (files-stamp.ts). An update or a search whose scan differs in a few
 * files parses only their buckets' lines, and an update writes the other lines back as it read
 * them: at 7,000 files the whole manifest took ~6 ms to parse and ~3 ms to write in a one-edit
 * `mem index` of ~100 ms past start-up. Lines stay bytes (slices of the file read) until parsed: a
 * megabyte decoded to a string and encoded back was a full garbage collection at the end of the run.
 */
import { filesStamp, type StampedFile } from './files-stamp.js';
import type { FileStat } from './files-stamp.js';

export const BUCKETS = 32;

/** A path's bucket (FNV-1a over UTF-16 code units). */
export function bucketOf(path: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < path.length; i++) {
    h ^= path.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % BUCKETS;
}

/** Each bucket's fingerprint (filesStamp of its files, in path order) for files in path order; `of[i]` is files[i]'s bucket. */
export function bucketStamps(files: readonly StampedFile[]): { stamps: string[]; of: Uint8Array } {
  const of = new Uint8Array(files.length);
  const groups: StampedFile[][] = Array.from({ length: BUCKETS }, () => []);
  for (let i = 0; i < files.length; i++) groups[(of[i] = bucketOf(files[i]!.path))]!.push(files[i]!);
  return { stamps: groups.map(filesStamp), of };
}

/** A scan against the bucket fingerprints a tier head recorded (none recorded: every bucket differs). */
export interface BucketDiff {
  stamps: string[];
  /** Whether files[i] lies in a bucket whose fingerprint differs (only those files can have changed). */
  staleAt(i: number): boolean;
  /** The files `manifest` lists in those buckets that the scan does not (removed). */
  removed(manifest: Manifest): string[];
}

export function bucketDiff(recorded: readonly string[] | undefined, files: readonly StampedFile[]): BucketDiff {
  const { stamps, of } = bucketStamps(files);
  const stale = stamps.map((s, b) => recorded?.[b] !== s);
  return {
    stamps,
    staleAt: (i) => stale[of[i]!]!,
    removed: (manifest) => {
      const present = new Set(files.filter((_, i) => stale[of[i]!]).map((f) => f.path));
      return stale.flatMap((differs, b) =>
        differs ? Object.keys(manifest.bucket(b)).filter((p) => !present.has(p)) : [],
      );
    },
  };
}

type Bucket = Record<string, FileState>;

const EMPTY = Buffer.from('{}');

const isCount = (n: unknown) => Number.isInteger(n) && (n as number) >= 0;

function validEntry(f: unknown): boolean {
  const e = f as Partial<FileState> | null;
  return (
    !!e &&
    typeof e === 'object' &&
    typeof e.hash === 'string' &&
    typeof e.size === 'number' &&
    typeof e.mtimeMs === 'number' &&
    isCount(e.first) &&
    isCount(e.count) &&
    (e.runs === undefined ||
      (Array.isArray(e.runs) &&
        e.runs.every((r) => Array.isArray(r) && r.length === 2 && isCount(r[0]) && isCount(r[1]))))
  );
}

export class Manifest {
  private readonly buckets: (Bucket | undefined)[];
  private readonly touched = new Set<number>();

  /** `lines`: the tier file's bucket lines (BUCKETS of them, UTF-8); `size`: how many files they list. */
  private constructor(
    private readonly lines: readonly Uint8Array[],
    private count: number,
  ) {
    this.buckets = new Array<Bucket | undefined>(BUCKETS);
  }

  static read(lines: readonly Uint8Array[], size: number): Manifest {
    if (lines.length !== BUCKETS) throw new Error(`the manifest has ${lines.length} buckets, not ${BUCKETS}`);
    return new Manifest(lines, size);
  }

  static of(files: Record<string, FileState> = {}): Manifest {
    const m = new Manifest(
      Array.from({ length: BUCKETS }, () => EMPTY),
      0,
    );
    for (const [p, f] of Object.entries(files)) m.set(p, f);
    return m;
  }

  get size(): number {
    return this.count;
  }

  /** Bucket `b`'s files, parsed on first use (a damaged line throws). */
  bucket(b: number): Bucket {
    let got = this.buckets[b];
    if (!got) {
      const line = this.lines[b]!;
      let value: unknown;
      try {
        value = JSON.parse(Buffer.from(line.buffer, line.byteOffset, line.byteLength).toString('utf8'));
      } catch (err) {
        throw new Error(`manifest bucket ${b} is not valid JSON (${(err as Error).message})`);
      }
      if (!value || typeof value !== 'object' || Array.isArray(value))
        throw new Error(`manifest bucket ${b} is not an object`);
      // A line moved or edited by hand: a file looked up in its own bucket would be missed, its docs never retired.
      for (const [path, f] of Object.entries(value)) {
        if (bucketOf(path) !== b)
          throw new Error(`manifest bucket ${b} lists ${path}, which belongs in bucket ${bucketOf(path)}`);
        if (!validEntry(f)) throw new Error(`manifest bucket ${b} has a damaged entry for ${path}`);
      }
      got = this.buckets[b] = value as Bucket;
    }
    return got;
  }

  get(path: string): FileState | undefined {
    const b = this.bucket(bucketOf(path));
    return Object.hasOwn(b, path) ? b[path] : undefined;
  }

  set(path: string, f: FileState): void {
    const n = bucketOf(path);
    const b = this.bucket(n);
    if (!Object.hasOwn(b, path)) this.count++;
    b[path] = f;
    this.touched.add(n);
  }

  delete(path: string): void {
    const n = bucketOf(path);
    const b = this.bucket(n);
    if (!Object.hasOwn(b, path)) return;
    delete b[path];
    this.count--;
    this.touched.add(n);
  }

  /** Every file, bucket by bucket (all buckets parsed). */
  *entries(): Generator<[string, FileState]> {
    for (let b = 0; b < BUCKETS; b++) yield* Object.entries(this.bucket(b));
  }

  /** The files as one record (tests, and a caller that wants them all). */
  toRecord(): Record<string, FileState> {
    return Object.fromEntries(this.entries());
  }

  /** The bucket lines to write: as read where nothing changed, else the bucket's JSON. */
  serialize(): Uint8Array[] {
    return this.lines.map((line, b) => (this.touched.has(b) ? Buffer.from(JSON.stringify(this.buckets[b])) : line));
  }
}

export interface FileState extends FileStat {
  hash: string;
  /** The file's chunks are docs first .. first+count-1, unless `runs` says otherwise. */
  first: number;
  /** How many chunks (docs) the file has. */
  count: number;
  /**
   * The file's docs in chunk order as runs [first, count], when they are not one run from `first`:
   * an update that re-chunked the file kept the docs of its unchanged chunks (chunk-reuse.ts).
   */
  runs?: [number, number][];
  warning?: string;
}
