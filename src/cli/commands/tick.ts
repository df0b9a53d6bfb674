/** `mem tick`: memory scores and suggestions (cold, delete and merge candidates); reads only, writes nothing. */
import type { Command } from 'commander';
import { commandContext, type GlobalOptions } from '../context.js';
import { loadEntries } from '../../entries/store.js';
import { COEFFICIENTS, mergeCandidates, scoreEntries, THRESHOLDS } from '../../governance/score.js';
import { readUsage } from '../../runlog/usage-log.js';

export function registerTick(program: Command): void {
  program
    .command('tick')
    .description(
      'score every entry from links, use, recency and age; suggest cold, delete and merge candidates (changes nothing)',
    )
    .addHelpText(
      'after',
      '\nExamples:\n  mem tick\n  mem tick --json | jq \'.entries | sort_by(.score) | .[:5]\'\n\nThe formula and thresholds are in docs/agents.md ("mem tick").',
    )
    .action(async (_o: unknown, cmd: Command) => {
      const { workspace, now, out } = commandContext(cmd.optsWithGlobals<GlobalOptions>());
      const records = await loadEntries(workspace);
      const entries = scoreEntries(records, await readUsage(workspace), now).sort(
        (a, b) => b.score - a.score || a.id.localeCompare(b.id),
      );
      const merge = mergeCandidates(records, entries);
      const pick = (state: string) => entries.filter((e) => e.state === state);
      const result = {
        now: now.toISO({ suppressMilliseconds: true }),
        coefficients: COEFFICIENTS,
        thresholds: THRESHOLDS,
        entries,
        cold: pick('cold').map((e) => e.id),
        deleteCandidates: pick('delete-candidate').map((e) => e.id),
        mergeCandidates: merge,
      };
      out.json(result);
      const lines = [
        `${entries.length} entries scored: ${pick('active').length} active, ${result.cold.length} cold, ${result.deleteCandidates.length} delete candidates, ${merge.length} merge candidates (suggestions only; nothing changed)`,
      ];
      for (const e of pick('cold')) lines.push(`cold    ${e.score.toFixed(3).padStart(7)}  ${e.id}  (${e.path})`);
      for (const e of pick('delete-candidate'))
        lines.push(
          `delete? ${e.score.toFixed(3).padStart(7)}  ${e.id}  (no inbound links, unused ${Math.floor(e.daysSinceUse)} days)`,
        );
      for (const m of merge) lines.push(`merge?  ${m.similarity.toFixed(2).padStart(7)}  ${m.a} + ${m.b}`);
      out.result(lines.join('\n'));
    });
}
