/** `mem config`: the effective configuration after mem.local.json and the user-level file, and the schedule it gives. */
import type { Command } from 'commander';
import { commandContext, type GlobalOptions } from '../context.js';
import { SCHEDULED_JOBS } from '../../config/jobs.js';
import { effectiveSchedule } from '../../schedule/jobs.js';

export function registerConfig(program: Command): void {
  program
    .command('config')
    .description(
      'print the effective configuration (defaults, user file, mem.config.json, mem.local.json) and schedule',
    )
    .addHelpText(
      'after',
      '\nExamples:\n  mem config\n  mem config --json | jq .schedule\n  mem config --json | jq .config.sources',
    )
    .action((_o: unknown, cmd: Command) => {
      const { loaded, out, workspace } = commandContext(cmd.optsWithGlobals<GlobalOptions>());
      // The defaults with the config's overrides; `config.schedule` holds only the overrides.
      const on = new Map(effectiveSchedule(loaded.config).map((s) => [s.job, s.cron]));
      const schedule = Object.fromEntries(SCHEDULED_JOBS.map((job) => [job, on.get(job) ?? 'off']));
      const value = { workspace, timezone: loaded.zone, files: loaded.files, schedule, config: loaded.config };
      if (out.opts.json) out.json(value);
      else {
        const jobs = SCHEDULED_JOBS.map(
          (job) => `${job} ${schedule[job] === 'off' ? 'off' : `"${schedule[job]}"`}`,
        ).join(', ');
        out.result(
          `# workspace ${workspace}\n# from ${loaded.files.join(', ') || '(defaults)'}\n# schedule (${loaded.zone}): ${jobs}; "mem status" says what runs it\n${JSON.stringify(loaded.config, null, 2)}`,
        );
      }
    });
}
