/**
 * What the daemon does after a run of its own that did not end ok (docs/operations.md): the run's
 * line in the job log when the child could not write it (stopped by the daemon or killed by a signal;
 * ended before its job hook), then `onFailure`. Under the daemon, only the daemon runs onFailure (the
 * children leave it: job-hook.ts), so every failed run is notified exactly once, a run that could not
 * load its configuration included (the daemon passes the configuration it last loaded).
 */
import type { Config } from '../config/schema.js';
import { appendJobLog, jobLine, readJobLog, type JobLogLine } from '../runlog/job-log.js';
import type { ChildOutcome } from './child.js';
import { runOnFailure } from './on-failure.js';

/** The line a child wrote for its own run, if it did. */
function ownLine(workspace: string, o: ChildOutcome): JobLogLine | undefined {
  return readJobLog(workspace).findLast(
    (l) => l.pid === o.pid && l.job === o.job && Date.parse(l.end) >= o.start.getTime(),
  );
}

export async function reportFailure(
  workspace: string,
  o: ChildOutcome,
  described: { outcome: JobLogLine['outcome']; message: string },
  config: Config,
  warn: (text: string) => void,
): Promise<void> {
  const stopped = !!(o.stoppedFor || o.signal);
  const own = stopped ? undefined : ownLine(workspace, o);
  if (!own) {
    const line = jobLine(
      { job: o.job, trigger: 'daemon', pid: o.pid, start: o.start, end: o.end },
      { ...described, exitCode: stopped ? 3 : (o.code ?? 1), counts: {} },
    );
    await appendJobLog(workspace, line, config.limits.jobLogBytes).catch((e: Error) =>
      warn(`daemon: could not write the job log: ${e.message}`),
    );
  }
  if (!config.onFailure) return;
  const r = await runOnFailure(config.onFailure, o.job, own?.message ?? described.message, workspace);
  if (r.code !== 0)
    warn(`daemon: onFailure command ${r.timedOut ? 'timed out' : `failed (${r.error ?? `exit ${r.code}`})`}`);
}
