/**
 * What `mem archive` takes and reports (update.ts runs it, in a worker thread or in process): the
 * report crosses the worker boundary as plain data, so it holds counts, strings and arrays only.
 */

export interface ArchiveUpdate {
  files: number;
  /** Files read this time (new, grown or rewritten). */
  filesRead: number;
  rewritten: Array<{ file: string; why: string }>;
  retiredFiles: number;
  bytesRead: number;
  turns: number;
  docs: number;
  segments: number;
  /** Small segments merged into one this time (see compact.ts); 0 most runs. */
  compacted: number;
  /** Why the whole archive was read again without --rebuild (a damaged segment), else null. */
  rebuilt: string | null;
  /** Windows embedded this time (archive.embed). */
  embedded: number;
  totalDocs: number;
  ms: number;
  warnings: string[];
}

export interface ArchiveUpdateOptions {
  rebuild?: boolean;
  progress?: (msg: string) => void;
  /**
   * Warn about each transcript skipped as not text (default true). Microsync's refresh turns it off:
   * microsync has already warned about the transcripts it read, and one warning per file is enough.
   */
  warnNotText?: boolean;
}

/** A report with nothing done yet. */
export function emptyUpdate(): ArchiveUpdate {
  return {
    files: 0,
    filesRead: 0,
    rewritten: [],
    retiredFiles: 0,
    bytesRead: 0,
    turns: 0,
    docs: 0,
    segments: 0,
    compacted: 0,
    totalDocs: 0,
    rebuilt: null,
    embedded: 0,
    ms: 0,
    warnings: [],
  };
}
