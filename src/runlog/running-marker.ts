/**
 * `.mem/running/<job>.<pid>.json`: which process runs a job right now, for `mem status`, which names
 * a held lock's holder from these markers. Written as a run starts and removed as it ends, by the
 * job hook (a job run by the CLI) and by the search server (a `mem index` it runs for a client, in
 * the client's name), and by the daemon for a child it stopped or that died (it could not remove its
 * own). Both steps are best effort: the marker only informs, and a run goes on without it; a marker
 * that could not be written whole (a full disk) is removed, not left empty.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { WorkspaceWriter } from '../write/writer.js';
import type { Trigger } from './job-log.js';

export const RUNNING_DIR = '.mem/running';

export interface RunningMark {
  job: string;
  pid: number;
  trigger: Trigger;
  start: Date;
}

/** The marker of `job` run by process `pid`, relative to the workspace. */
export function markerPath(job: string, pid: number): string {
  return `${RUNNING_DIR}/${job}.${pid}.json`;
}

/** Writes the marker (the writer checks the path against its job's allowance); its path, or undefined when it could not be written. */
export function markRunning(writer: WorkspaceWriter, run: RunningMark): string | undefined {
  let marker: string | undefined;
  try {
    marker = writer.resolve(markerPath(run.job, run.pid));
    fs.mkdirSync(path.dirname(marker), { recursive: true });
    fs.writeFileSync(
      marker,
      JSON.stringify({ job: run.job, pid: run.pid, trigger: run.trigger, start: run.start.toISOString() }) + '\n',
    );
    return marker;
  } catch {
    clearRunning(marker);
    return undefined;
  }
}

export function clearRunning(marker: string | undefined): void {
  if (!marker) return;
  try {
    fs.rmSync(marker, { force: true });
  } catch {
    // e.g. `.mem` became a file: the run's outcome stands.
  }
}
