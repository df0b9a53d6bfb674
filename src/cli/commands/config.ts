/** `mem config`: the effective configuration after mem.local.json and the user-level file. */
import type { Command } from 'commander';
import { commandContext, type GlobalOptions } from '../context.js';

export function registerConfig(program: Command): void {
  program
    .command('config')
    .description('print the effective configuration (defaults, user file, mem.config.json, mem.local.json)')
    .addHelpText('after', '\nExample:\n  mem config --json | jq .config.sources')
    .action((_o: unknown, cmd: Command) => {
      const { loaded, out, workspace } = commandContext(cmd.optsWithGlobals<GlobalOptions>());
      const value = { workspace, timezone: loaded.zone, files: loaded.files, config: loaded.config };
      if (out.opts.json) out.json(value);
      else out.result(`# workspace ${workspace}\n# from ${loaded.files.join(', ') || '(defaults)'}\n${JSON.stringify(loaded.config, null, 2)}`);
    });
}
