/** `mem schedule install|remove|print [--cron|--launchd]`: hand the schedule to cron or launchd, or take it back (docs/operations.md). */
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { commandContext, type GlobalOptions } from '../context.js';
import { MemError } from '../../core/errors.js';
import { renderCronBlock } from '../../schedule/crontab.js';
import { install, planSchedule, uninstall } from '../../schedule/install.js';
import { scheduleTarget, type TargetFlags } from '../../schedule/installed.js';
import { labelPrefix } from '../../schedule/launchd-label.js';
import { renderPlist } from '../../schedule/launchd.js';

export function registerSchedule(program: Command): void {
  program
    .command('schedule')
    .argument('<action>', 'install, remove (alias: uninstall) or print')
    .description(
      'write (or print) crontab lines or launchd agents that run each scheduled job, or remove them; idempotent',
    )
    .option('--cron', 'use the user crontab (default on Linux)')
    .option('--launchd', 'use launchd agents in ~/Library/LaunchAgents (default on macOS)')
    .option(
      '--crontab-cmd <cmd>',
      'crontab command to read (-l) and write (-) the crontab (default: $MEM_CRONTAB_CMD or "crontab")',
    )
    .option(
      '--launchagents-dir <dir>',
      'folder for the plists (default: $MEM_LAUNCHAGENTS_DIR or ~/Library/LaunchAgents; a custom folder is not loaded with launchctl)',
    )
    .addHelpText(
      'after',
      '\nExamples:\n  mem schedule print\n  mem schedule install            # crontab on Linux, launchd on macOS\n  mem schedule install --launchd\n  mem schedule remove             # take this workspace\'s lines or agents out again (alias: uninstall)\n\nTimes are those of mem.config.json "schedule" in its "timezone"; see docs/operations.md for other zones.',
    )
    .action(async (action: string, f: TargetFlags, cmd: Command) => {
      const { workspace: given, loaded, out } = commandContext(cmd.optsWithGlobals<GlobalOptions>());
      // One name per workspace, however it was reached: a link to it must find (and replace) the same block or agents.
      const workspace = fs.realpathSync(given);
      if (!['install', 'remove', 'uninstall', 'print'].includes(action))
        throw new MemError('USAGE', `schedule: unknown action "${action}" (install, remove or print)`);
      const t = scheduleTarget(f);
      const plan = planSchedule(workspace, loaded, t.backend);
      for (const n of plan.notes) out.warn(n);
      if (action === 'print') {
        const text =
          t.backend === 'cron'
            ? renderCronBlock(workspace, plan.jobs, plan.notes)
            : plan.jobs
                .map(
                  (j) =>
                    `<!-- ${path.join(t.launchAgentsDir, `${labelPrefix(workspace)}${j.job}.plist`)} -->\n${renderPlist(`${labelPrefix(workspace)}${j.job}`, j)}`,
                )
                .join('\n');
        out.json({ backend: t.backend, jobs: plan.jobs, notes: plan.notes, text });
        out.result(text);
        return;
      }
      const r = action === 'install' ? await install(workspace, plan, t) : await uninstall(workspace, t);
      out.json({
        backend: t.backend,
        action,
        changed: r.changed,
        files: r.files,
        jobs: action === 'install' ? plan.jobs : [],
      });
      const where = t.backend === 'cron' ? `crontab (${t.crontabCmd})` : t.launchAgentsDir;
      out.line(
        action === 'install'
          ? `${r.changed ? 'installed' : 'already installed, unchanged'}: ${plan.jobs.map((j) => `${j.job} "${j.cron}"`).join(', ') || 'no jobs scheduled'} in ${where}`
          : `${r.changed ? 'removed' : 'nothing to remove'} from ${where}`,
      );
    });
}
