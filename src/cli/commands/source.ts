/** `mem source <id>`: the transcript turns an entry was made from ("how do you know that?"). */
import type { Command } from 'commander';
import { commandContext, type GlobalOptions } from '../context.js';
import { c } from '../../terminal/output.js';
import { MemError } from '../../core/errors.js';
import { findSource } from '../../archive/source.js';

export function registerSource(program: Command): void {
  program
    .command('source')
    .argument('<id>', 'entry id, or a prefix only one id has (any case)')
    .description('print the original transcript turns behind an entry (speaker, time, file position), secrets redacted')
    .option('--context <n>', 'also show this many turns before and after the cited ones', '0')
    .addHelpText(
      'after',
      '\nExamples:\n  mem source DECISION-20261120-move-the-event-store-to-postgresql\n  mem source RULE-20261120-cap-uploads-at-25-mb --context 2 --json\n\nExit codes: 0 shown; when the transcript changed, warnings on stderr say how and --json has read, statementFound, nowAt (never the wrong turns silently). 1 no such entry, no transcript source, or the transcript is gone (moved or deleted). 2 a bad --context. See docs/archive.md.',
    )
    .action(async (id: string, o: { context: string }, cmd: Command) => {
      const { workspace, loaded, out } = commandContext(cmd.optsWithGlobals<GlobalOptions>());
      const around = Number(o.context);
      if (!Number.isInteger(around) || around < 0 || around > 1000)
        throw new MemError('USAGE', `--context must be a whole number from 0 to 1000 (got "${o.context}")`);
      const r = await findSource(workspace, loaded, id, around);
      for (const w of r.warnings) out.warn(w);
      out.json(r);
      out.result(
        `${c.dim(`${r.id} ← session ${r.source.session_id} · ${r.source.session_path} · turns ${r.source.message_range} (${r.kind})`)}`,
      );
      for (const t of r.turns) {
        const head = `${t.cited ? '>' : ' '} [${t.index}] ${t.role}${t.timestamp ? ` · ${t.timestamp}` : ''} · byte ${t.endOffset}`;
        out.result(`${t.cited ? c.bold(head) : c.dim(head)}\n${t.text.replace(/^/gm, '    ')}`);
      }
    });
}
