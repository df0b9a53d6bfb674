/** `mem remember "<text>"`: record one entry by hand (origin manual). */
import type { Command } from 'commander';
import { commandContext, type GlobalOptions } from '../context.js';
import { runRemember } from '../../jobs/remember.js';
import { refreshIndex } from './refresh-index.js';
import { count } from '../../core/count.js';

export function registerRemember(program: Command): void {
  program
    .command('remember')
    .description('append one entry by hand (origin manual); the same text twice adds nothing')
    .argument('<text>', 'what to remember')
    .option('--kind <kind>', 'decision | rule | architecture | note | preference | goal | task | lesson', 'note')
    .option('--title <title>', 'entry title (default: the first sentence)')
    .option(
      '--key <key>',
      'stable typed key, e.g. pref:writing:tone (a newer entry with the same key supersedes this one)',
    )
    .option('--scope <scope>', 'global | project:<name> | lang:<name> (default: the scope of the current folder)')
    .option('--state <state>', "a task's state: todo (default) | doing | done | blocked")
    .addHelpText(
      'after',
      '\nExamples:\n  mem remember "Deploys happen on Tuesdays only" --kind rule\n  mem remember "Use pnpm, not npm" --kind decision --key decision:shop:package-manager --scope project:shop',
    )
    .action(
      async (
        text: string,
        o: { kind?: string; title?: string; key?: string; scope?: string; state?: string },
        cmd: Command,
      ) => {
        const { workspace, loaded, now, out } = commandContext(cmd.optsWithGlobals<GlobalOptions>());
        const r = await runRemember({ workspace, loaded, now, text, ...o, cwd: process.cwd() });
        if (r.added) await refreshIndex(workspace, loaded, out);
        out.json(r);
        if (r.redacted) out.warn(`${count(r.redacted, 'secret')} redacted before writing`);
        out.line(r.added ? `remembered ${r.id} in ${r.file}` : `already remembered as ${r.id}; nothing changed`);
      },
    );
}
