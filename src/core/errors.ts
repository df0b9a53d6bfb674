/**
 * The one error type of memfold. Every failure a user can cause or meet carries a stable code;
 * only the CLI entry maps codes to exit statuses and prints, so library code never exits.
 */

export const EXIT = {
  ok: 0,
  error: 1,
  usage: 2,
  lockBusy: 3,
  config: 4,
  problems: 5,
} as const;

const exitByCode = {
  USAGE: EXIT.usage,
  INVALID_DATE: EXIT.usage,
  LOCK_BUSY: EXIT.lockBusy,
  JOB_TIMEOUT: EXIT.lockBusy,
  /** A file kept changing under a job (a person's editor or `>>`): nothing written, the next run tries again. */
  FILE_CHANGED: EXIT.lockBusy,
  CONFIG_INVALID: EXIT.config,
  WORKSPACE_NOT_FOUND: EXIT.config,
  SOURCE_UNREADABLE: EXIT.error,
  /** A configured source path that does not exist (an agent not installed yet): microsync warns and reads the others. */
  SOURCE_MISSING: EXIT.error,
  WRITE_DENIED: EXIT.error,
  /** The file system refused a write (permission denied, read-only, disk full, quota): nothing half-written. */
  WRITE_FAILED: EXIT.error,
  IO: EXIT.error,
  NOT_FOUND: EXIT.error,
  LLM: EXIT.error,
  LINT_PROBLEMS: EXIT.problems,
  STATUS_PROBLEMS: EXIT.error,
  DAEMON_RUNNING: EXIT.lockBusy,
} as const;

export type MemErrorCode = keyof typeof exitByCode;

export class MemError extends Error {
  override readonly name = 'MemError';
  /** What the job log keeps of this error when the message names what must not stay on disk (ids `forget --hard` was given). */
  readonly logged?: string;
  constructor(
    readonly code: MemErrorCode,
    message: string,
    options?: { cause?: unknown; logged?: string },
  ) {
    super(message, options);
    if (options?.logged !== undefined) this.logged = options.logged;
  }

  get exitCode(): number {
    return exitByCode[this.code];
  }
}

export function isMemError(err: unknown): err is MemError {
  return err instanceof MemError;
}

/** The exit code a failure ends with: a MemError's own, else 1. */
export function exitCodeOf(err: unknown): number {
  return isMemError(err) ? err.exitCode : EXIT.error;
}

const NOT_A_FOLDER = 'a part of its path is a file, not a folder';

/** One line naming what failed, for errors that did not come from memfold itself (EACCES, ENOSPC, ...). */
export function describeError(err: unknown): string {
  if (err instanceof MemError) return err.message;
  const e = err as NodeJS.ErrnoException | undefined;
  if (e && typeof e === 'object' && typeof e.code === 'string') {
    const where = e.path ? ` (${e.path})` : '';
    const what: Record<string, string> = {
      EACCES: 'permission denied',
      EPERM: 'operation not permitted',
      ENOSPC: 'no space left on device',
      EROFS: 'read-only file system',
      EDQUOT: 'disk quota exceeded',
      ENAMETOOLONG: 'file name too long',
      ENOENT: 'no such file or directory',
      EISDIR: 'is a directory',
      ENOTDIR: NOT_A_FOLDER,
      EMFILE: 'too many open files',
    };
    return `${what[e.code] ?? e.message}${where}`;
  }
  return err instanceof Error ? err.message : String(err);
}

/** Errno codes that mean "this file system will not take the write", whatever is retried. */
const WRITE_REFUSED: Record<string, string> = {
  EACCES: 'permission denied (this user may not write there)',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EFBIG: 'file too large for this file system or user limit',
  ENOTDIR: NOT_A_FOLDER,
  EISDIR: 'it is a folder, not a file',
};

/**
 * WRITE_FAILED for an errno that means the file system refuses writes (EACCES, EPERM, EROFS, ENOSPC,
 * EDQUOT, EFBIG) or the path cannot hold the file (ENOTDIR, EISDIR), naming `what` was being written instead of the temp or lock file the errno carries;
 * any other error is returned unchanged.
 */
export function writeRefused(err: unknown, what: string, after = 'left as it was'): unknown {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (err instanceof MemError || typeof code !== 'string' || !Object.hasOwn(WRITE_REFUSED, code)) return err;
  return new MemError('WRITE_FAILED', `cannot write ${what}: ${WRITE_REFUSED[code]}; ${after}`, { cause: err });
}
