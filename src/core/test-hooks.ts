/**
 * Every fault-injection switch the tests use, in one place. Each is inert unless the test switch
 * `MEM_TEST_HOOKS=1` is set too, so a stray `MEM_FAULT` in a user's environment (or a copied test
 * command line) can never pause a job mid-write or fake a failure in a real run.
 */
export const TEST_HOOKS = {
  /** `pause-mid-write`: an atomic write stops half-way and waits to be killed (crash tests);
   * `consolidation-pause`: wrapup/compound hold their locks between planning and writing (lock tests);
   * `pause-before-rename`: a checked rewrite stops between its unchanged-check and its rename (write/checked-replace.ts);
   * `pause-archive-worker`: the archive build's worker thread waits before it builds until the main thread
   * tells it the archive lock is lost, or MEM_FAULT_MS passes (archive/update-worker.ts). */
  MEM_FAULT: 'which pause',
  /** With consolidation-pause or pause-archive-worker: the longest pause in ms (default 2000). */
  MEM_FAULT_MS: 'pause length',
  /** With consolidation-pause or pause-before-rename: a file whose existence ends the pause. */
  MEM_FAULT_RELEASE: 'release file',
  /** With pause-before-rename: only rewrites of this workspace-relative file pause. */
  MEM_FAULT_FILE: 'paused file',
  /** The resident search server fails at start-up with this text. */
  MEM_SEARCH_SERVER_SIMULATE_ERROR: 'start-up failure',
  /** An index worker thread fails, so the one-thread fallback runs. */
  MEM_INDEX_SIMULATE_WORKER_ERROR: 'worker failure',
  /** `mem archive --rebuild`'s worker thread gets this heap cap (MB), so a tiny one proves the uncapped fallback. */
  MEM_ARCHIVE_WORKER_HEAP_MB: 'archive worker heap',
  /** `mem watch` acts as if native watching failed with this error code (EMFILE, ENOSPC). */
  MEM_WATCH_SIMULATE_ERROR: 'watch failure',
  /** The offline extractor's learned scorer (docs/extraction-model.md): `off` (the rules alone), or a weights file used instead of the committed one. */
  MEM_EXTRACT_MODEL: 'extraction model',
} as const;

export type TestHook = keyof typeof TEST_HOOKS;

/** The hook's value when tests switched hooks on, else undefined (an empty value counts as unset). */
export function testHook(name: TestHook, env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env.MEM_TEST_HOOKS === '1' ? env[name] || undefined : undefined;
}
