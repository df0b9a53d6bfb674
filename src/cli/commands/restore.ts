/** `mem restore <id>`: a superseded, archived or retracted entry back to active, logged. */
import type { Command } from 'commander';
import { commandContext, type GlobalOptions } from '../context.js';
import { runRestore } from '../../jobs/restore.js';
import { refreshIndex } from './refresh-index.js';

export function registerRestore(program: Command): void {
  program
    .command('restore')
    .argument('<id>', 'entry id')
    .description(
      'undo a wrong supersede, archive or retraction: the status goes back to active (logged in the weekly log)',
    )
    .option('--dry-run', 'say what would change, change nothing')
    .addHelpText(
      'after',
      '\nExamples:\n  mem restore NOTE-20261120-the-staging-db-password-rotates-on-mondays\n  mem restore NOTE-20261120-the-staging-db-password-rotates-on-mondays --dry-run --json',
    )
    .action(async (id: string, o: { dryRun?: boolean }, cmd: Command) => {
      const { workspace, loaded, now, out } = commandContext(cmd.optsWithGlobals<GlobalOptions>());
      const r = await runRestore({ workspace, loaded, now, id, dryRun: !!o.dryRun });
      if (r.changed && !r.dryRun) await refreshIndex(workspace, loaded, out);
      out.json(r);
      if (r.from === 'active') out.line(`${id} is already active; nothing changed`);
      else {
        const flipped = r.copies.filter((x) => x.changed);
        out.line(
          `${o.dryRun ? 'would restore' : 'restored'} ${id}: ${flipped.map((x) => `${x.from} → active in ${x.file}`).join(', ')}${r.log ? ` (logged in ${r.log})` : ''}`,
        );
      }
      const explicit = r.stillSupersededBy.filter((x) => x !== r.sameKey?.by);
      if (explicit.length)
        out.warn(
          `${explicit.join(', ')} still names ${id} in "supersedes": the next "mem compound" flips it back unless that entry is retracted ("mem forget <id>")`,
        );
      if (r.sameKey)
        out.warn(
          `${r.sameKey.by} is a newer active entry with the same key ${r.sameKey.key}: the next "mem compound" supersedes ${id} again unless that entry is retracted ("mem forget <id>") or its key changed`,
        );
    });
}
