/**
 * Where `mem schedule` writes, and what it has installed for a workspace: the jobs in its crontab
 * block and its launchd agents. `mem status` says a job is scheduled only when one of these (or a
 * running daemon) will run it, never from mem.config.json alone. Reads only; the crontab command and
 * the LaunchAgents folder are injectable as for install (MEM_CRONTAB_CMD, MEM_LAUNCHAGENTS_DIR).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MemError } from '../core/errors.js';
import { blockJobs } from './crontab.js';
import { readCrontab } from './crontab-command.js';
import type { Backend, ScheduleTarget } from './install.js';
import { labelPrefix } from './launchd-label.js';

export interface TargetFlags {
  cron?: boolean;
  launchd?: boolean;
  crontabCmd?: string;
  launchagentsDir?: string;
}

export function scheduleTarget(f: TargetFlags = {}): ScheduleTarget {
  if (f.cron && f.launchd) throw new MemError('USAGE', 'choose one of --cron and --launchd');
  const backend: Backend = f.cron ? 'cron' : f.launchd ? 'launchd' : process.platform === 'darwin' ? 'launchd' : 'cron';
  const injectedDir = f.launchagentsDir ?? process.env.MEM_LAUNCHAGENTS_DIR;
  return {
    backend,
    crontabCmd: f.crontabCmd ?? process.env.MEM_CRONTAB_CMD ?? 'crontab',
    launchAgentsDir: path.resolve(injectedDir ?? path.join(os.homedir(), 'Library', 'LaunchAgents')),
    useLaunchctl: !injectedDir && process.platform === 'darwin',
  };
}

export interface InstalledJobs {
  /** Jobs in the crontab block; null when the crontab could not be read (no cron on this machine). */
  cron: string[] | null;
  launchd: string[];
}

/** `workspace` by its real path, the name install writes. */
export async function installedJobs(workspace: string, t: ScheduleTarget = scheduleTarget()): Promise<InstalledJobs> {
  const cron = await readCrontab(t.crontabCmd).then(
    (text) => blockJobs(text, workspace),
    () => null,
  );
  let names: string[] = [];
  try {
    names = fs.readdirSync(t.launchAgentsDir);
  } catch {
    // No LaunchAgents folder (Linux): no agents.
  }
  // The label hashes the workspace path (node:crypto, about 4 ms): only when there are agents to match.
  const prefix = names.length ? labelPrefix(workspace) : '';
  return {
    cron,
    launchd: names
      .filter((n) => n.startsWith(prefix) && n.endsWith('.plist'))
      .map((n) => n.slice(prefix.length, -'.plist'.length)),
  };
}
