/**
 * `mem schedule install|uninstall|print`, the doing half: builds each job's command line (absolute
 * node, CLI and workspace paths, a log file in `.mem/logs/`), then writes the user's crontab through
 * the crontab command, or plists into the LaunchAgents folder. Both are injectable (MEM_CRONTAB_CMD,
 * MEM_LAUNCHAGENTS_DIR, or the options), so tests never touch the real ones (DESIGN §2).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LoadedConfig } from '../config/load.js';
import { MemError } from '../core/errors.js';
import { systemZone } from '../core/time.js';
import { CLI_BIN } from '../core/cli-bin.js';
import { defaultLockOptions } from '../write/defaults.js';
import { WorkspaceWriter } from '../write/writer.js';
import { readCrontab, sh, writeCrontab } from './crontab-command.js';
import { installCronBlock, removeCronBlock, renderCronBlock, type JobCommand } from './crontab.js';
import { effectiveSchedule } from './jobs.js';
import { labelPrefix } from './launchd-label.js';
import { renderPlist } from './launchd.js';
import { cronFields, toSystemZone } from './zone.js';

export type Backend = 'cron' | 'launchd';

export interface ScheduleTarget {
  backend: Backend;
  crontabCmd: string;
  launchAgentsDir: string;
  /** The real LaunchAgents folder on macOS: then launchctl loads and unloads the agents. */
  useLaunchctl: boolean;
}

export interface SchedulePlan {
  jobs: JobCommand[];
  notes: string[];
}

export function planSchedule(
  workspace: string,
  loaded: LoadedConfig,
  backend: Backend,
  sysZone = systemZone(),
  at = new Date(),
): SchedulePlan {
  const notes: string[] = [];
  const jobs = effectiveSchedule(loaded.config).map((s) => {
    cronFields(s.cron); // cron and launchd take 5 fields; throws a clear error for a seconds field.
    const moved = toSystemZone(s.cron, loaded.zone, sysZone, at);
    if (moved.shiftedHours)
      notes.push(
        `${s.job}: "${s.cron}" in ${loaded.zone} is "${moved.expr}" in the system's zone ${sysZone} (shifted ${-moved.shiftedHours}h as of ${at.toISOString().slice(0, 10)}; re-run "mem schedule install" after a DST change)`,
      );
    const log = path.join(workspace, '.mem', 'logs', backend === 'cron' ? 'cron.log' : `launchd-${s.job}.log`);
    return {
      job: s.job,
      cron: moved.expr,
      argv: [process.execPath, CLI_BIN, '-C', workspace, s.job],
      env: { MEM_TRIGGER: backend },
      log,
    };
  });
  return { jobs, notes };
}

export interface ApplyResult {
  changed: boolean;
  files: string[];
}

export async function install(workspace: string, plan: SchedulePlan, t: ScheduleTarget): Promise<ApplyResult> {
  const logs = new WorkspaceWriter(workspace, 'index', defaultLockOptions()).resolve('.mem/logs/.keep');
  fs.mkdirSync(path.dirname(logs), { recursive: true });
  if (t.backend === 'cron') {
    const current = await readCrontab(t.crontabCmd);
    const next = installCronBlock(current, workspace, renderCronBlock(workspace, plan.jobs, plan.notes));
    if (next !== current) await writeCrontab(t.crontabCmd, next);
    return { changed: next !== current, files: [] };
  }
  const removed = await uninstall(
    workspace,
    { ...t, useLaunchctl: t.useLaunchctl },
    new Set(plan.jobs.map((j) => `${labelPrefix(workspace)}${j.job}.plist`)),
  );
  fs.mkdirSync(t.launchAgentsDir, { recursive: true });
  const files: string[] = [];
  let changed = removed.changed;
  for (const j of plan.jobs) {
    const label = `${labelPrefix(workspace)}${j.job}`;
    const file = path.join(t.launchAgentsDir, `${label}.plist`);
    const text = renderPlist(label, j);
    const old = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
    if (old !== text) {
      if (old !== undefined && t.useLaunchctl) await sh('launchctl', ['bootout', `gui/${os.userInfo().uid}/${label}`]);
      fs.writeFileSync(file, text);
      if (t.useLaunchctl) await sh('launchctl', ['bootstrap', `gui/${os.userInfo().uid}`, file]);
      changed = true;
    }
    files.push(file);
  }
  return { changed, files };
}

/** Removes this workspace's block or agents; `keep` names plists an install is about to rewrite. */
export async function uninstall(
  workspace: string,
  t: ScheduleTarget,
  keep: Set<string> = new Set(),
): Promise<ApplyResult> {
  if (t.backend === 'cron') {
    const current = await readCrontab(t.crontabCmd);
    const next = removeCronBlock(current, workspace);
    if (next !== current) await writeCrontab(t.crontabCmd, next);
    return { changed: next !== current, files: [] };
  }
  const prefix = labelPrefix(workspace);
  const mine = (fs.existsSync(t.launchAgentsDir) ? fs.readdirSync(t.launchAgentsDir) : []).filter(
    (n) => n.startsWith(prefix) && n.endsWith('.plist') && !keep.has(n),
  );
  for (const n of mine) {
    if (t.useLaunchctl) await sh('launchctl', ['bootout', `gui/${os.userInfo().uid}/${n.slice(0, -6)}`]);
    fs.rmSync(path.join(t.launchAgentsDir, n), { force: true });
  }
  return { changed: mine.length > 0, files: mine.map((n) => path.join(t.launchAgentsDir, n)) };
}
