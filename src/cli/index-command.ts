/**
 * The body of `mem index [--rebuild]` (docs/search.md), shared by the commander command
 * (src/cli/commands/index-cmd.ts) and the lean entry (entry.ts), so both behave alike. Like a search, it
 * loads no commander, zod or luxon when the configuration is plainly valid and no `--now` is given:
 * after a one-file edit most of a run is start-up, so that is where the time goes (issue #3: ≤ 3×
 * `node -e 0` at 10,000 files).
 */
import { loadConfigLean } from '../config/lean.js';
import type { GlobalOptions } from './context.js';
import { locateWorkspace } from '../workspace/locate.js';
import { outputFor } from '../terminal/output.js';
import { nowText } from '../core/now-text.js';

export interface IndexFlags {
  rebuild?: boolean;
}

/**
 * True when a tier was updated file by file (the indexing code ran in this thread). `governance`:
 * also store what `mem status` shows of the entries (entries/governance-refresh.ts), for commander's
 * `mem index`, which has lint's modules loaded anyway; the lean one leaves it to the jobs.
 */
export async function indexCommand(
  flags: IndexFlags,
  g: GlobalOptions,
  opts: { governance?: boolean } = {},
): Promise<boolean> {
  const out = outputFor(g);
  const workspace = locateWorkspace(g.workspace);
  const loaded = await loadConfigLean(workspace);
  for (const w of loaded.warnings) out.warn(w);
  // Indexing needs no time, but a bad --now fails here as in every command (luxon only then).
  const moment = nowText(g);
  if (moment !== undefined) (await import('../core/time.js')).resolveNow(moment, loaded.zone);
  const { runIndex } = await import('../search/run/update.js');
  const { reportIndexRun } = await import('../search/run/index-report.js');
  let last = 0;
  const run = await runIndex(workspace, loaded, {
    rebuild: !!flags.rebuild,
    governance: opts.governance,
    onProgress: (done, total) => {
      // Called once per file: the clock is read every 64 files only.
      if (total < 200 || done % 64 || performance.now() - last < 100) return;
      last = performance.now();
      const width = 30;
      const fill = Math.round((done / total) * width);
      out.progress(`indexing [${'#'.repeat(fill)}${'.'.repeat(width - fill)}] ${done}/${total} files`);
    },
  });
  out.endProgress();
  reportIndexRun(out, run.result, run.embeddings, run.seconds);
  return Object.values(run.result.tiers).some((t) => !t.rebuilt && t.changed + t.added + t.removed > 0);
}
