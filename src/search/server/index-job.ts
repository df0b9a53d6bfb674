/**
 * A `mem index` run by the resident server for a client (src/cli/served-index.ts), git-fsmonitor
 * style: the server's tracked file list (files.ts) stands in for a stat of every file, so a one-file
 * edit costs the client little more than Node's start-up (issue #3: ≤ 3× `node -e 0` at 10,000 files).
 *
 * Invariant: the index it writes is the one a cold `mem index` would write now (same indexer, under
 * the same `index` lock and write allowance); it writes only what that run would (`.mem/index/` and
 * the job log line, as the client's run). Whatever would make the run long or unusual — more than
 * SERVED_INDEX_MAX_FILES files changed in a tier, a tier to rebuild or compact, embeddings
 * configured (the provider's key lives in the client's environment), a busy lock, any error — is
 * declined with `Cold` before anything is written, and the client indexes cold (with its progress bar
 * and its own errors).
 */
import type { LoadedConfig } from '../../config/load.js';
import { describeError } from '../../core/errors.js';
import { appendIndexRun, triggerFromEnv } from '../../runlog/job-log.js';
import { clearRunning, markRunning } from '../../runlog/running-marker.js';
import { defaultLockOptions } from '../../write/defaults.js';
import { WorkspaceWriter } from '../../write/writer.js';
import { updateIndex } from '../run/update.js';
import { IndexDeclined } from '../index/index-rules.js';
import type { ManifestCache } from '../index/tier-file.js';
import { Cold } from './answer.js';
import type { FileTracker } from './files.js';
import type { IndexRequest } from './protocol.js';
import type { ServedIndexRun } from './reply-data.js';

/** Most files one served `mem index` may change per tier; more, and the client indexes (with progress). */
export const SERVED_INDEX_MAX_FILES = 200;

/**
 * The run, for the client to print as a cold run prints it (the configuration's warnings, the run's
 * result and time, and the job log's warning, if any: src/cli/served-index.ts).
 * `manifests`: the tier states of the server's last runs (its own writes), so a run parses no
 * manifest while the tier files are the ones it wrote; cleared when a run fails (it may have been
 * changed in place before the failure).
 */
export async function serveIndex(
  workspace: string,
  loaded: LoadedConfig,
  files: FileTracker,
  req: IndexRequest,
  manifests: ManifestCache,
): Promise<ServedIndexRun> {
  if (loaded.config.embedding) throw new Cold('embeddings are configured');
  const start = new Date();
  const pid = Number.isInteger(req.pid) ? req.pid : process.pid;
  const trigger = triggerFromEnv({ MEM_TRIGGER: req.trigger });
  const lock = { ...defaultLockOptions(loaded.config), waitMs: 0 };
  // In the client's name, as the job log line: `mem status` names the index lock's holder from it.
  const marker = markRunning(new WorkspaceWriter(workspace, 'index', lock), { job: 'index', pid, trigger, start });
  let result;
  try {
    result = await updateIndex(workspace, loaded, {
      files: [...files.current('warm'), ...files.current('cold')],
      limit: SERVED_INDEX_MAX_FILES,
      lock,
      manifests,
    });
  } catch (err) {
    manifests.clear();
    throw new Cold(err instanceof IndexDeclined ? err.message : `index: ${describeError(err)}`);
  } finally {
    clearRunning(marker);
  }
  const end = new Date();
  const logged = await appendIndexRun(workspace, loaded.config.limits.jobLogBytes, { trigger, pid, start, end });
  return {
    warnings: loaded.warnings,
    result,
    seconds: (end.getTime() - start.getTime()) / 1000,
    ...(logged ? { logged } : {}),
  };
}
