/** `mem index [--rebuild]`: brings `.mem/index` up to date from dirty files only (docs/search.md). */
import type { Command } from 'commander';
import type { GlobalOptions } from '../cli/context.js';
import { workspaceContext } from '../cli/workspace-context.js';

export function registerIndex(program: Command): void {
  program
    .command('index')
    .description('update the search index (.mem/index) from changed files only; writes nothing but .mem/')
    .option('--rebuild', 'drop the index and build it again from every file')
    .addHelpText('after', '\nExamples:\n  mem index\n  mem index --rebuild --json\n\nThe summary line counts files scanned/changed/added/removed, chunks added/removed, embeddings computed vs from cache, and seconds.')
    .action(async (flags: { rebuild?: boolean }, cmd: Command) => {
      const g = cmd.optsWithGlobals<GlobalOptions>();
      const { workspace, loaded, out } = workspaceContext(g);
      // Indexing needs no time, but a bad --now fails here as in every command (luxon only then).
      const nowText = g.now ?? process.env.MEM_NOW;
      if (nowText !== undefined) (await import('../core/time.js')).resolveNow(nowText, loaded.zone);
      const { runIndex } = await import('../search/update.js');
      const { formatIndexSummary } = await import('../search/present.js');
      let last = 0;
      const run = await runIndex(workspace, loaded, {
        rebuild: !!flags.rebuild,
        onProgress: (done, total) => {
          if (total < 200 || performance.now() - last < 100) return;
          last = performance.now();
          const width = 30;
          const fill = Math.round((done / total) * width);
          out.progress(`indexing [${'#'.repeat(fill)}${'.'.repeat(width - fill)}] ${done}/${total} files`);
        },
      });
      out.endProgress();
      for (const w of run.result.warnings) out.warn(w);
      out.json({ tiers: run.result.tiers, embeddings: run.embeddings, seconds: Number(run.seconds.toFixed(3)), warnings: run.result.warnings });
      out.result(formatIndexSummary(run.result, run.embeddings, run.seconds));
    });
}
