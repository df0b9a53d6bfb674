import type { Command } from 'commander';
import { commandContext, type GlobalOptions } from '../context.js';
import { count } from '../../core/count.js';

/** `mem archive`: brings the archive tier (raw transcripts, `.mem/archive/`) up to date; only new lines are read. */
export function registerArchive(program: Command): void {
  program
    .command('archive')
    .description(
      'index the raw transcripts of the configured sources for `mem search --archive` (only new lines are read)',
    )
    .option('--rebuild', 'forget the archive index and read every transcript again (purged turns stay out)')
    .addHelpText(
      'after',
      '\nExamples:\n  mem archive\n  mem search --archive "lock errors" --source claude\n\nSee docs/archive.md.',
    )
    .action(async (o: { rebuild?: boolean }, cmd: Command) => {
      const { workspace, loaded, out } = commandContext(cmd.optsWithGlobals<GlobalOptions>());
      const { updateArchive } = await import('../../archive/update.js');
      const r = await updateArchive(workspace, loaded, { rebuild: !!o.rebuild, progress: (m) => out.progress(m) });
      out.endProgress();
      for (const w of r.warnings) out.warn(w);
      if (r.rebuilt) out.warn(r.rebuilt);
      for (const x of r.rewritten) out.warn(`${x.file}: ${x.why}; read again from the start`);
      out.json(r);
      out.line(
        `archive: ${r.filesRead} of ${count(r.files, 'transcript')} read (${r.bytesRead} bytes, ${count(r.turns, 'turn')}) → ${count(r.docs, 'new window')}${r.embedded ? ` (${r.embedded} embedded)` : ''}; ${r.totalDocs} in all (${r.ms} ms)`,
      );
    });
}
