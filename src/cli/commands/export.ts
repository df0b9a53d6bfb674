/** `mem export`: every entry with its fields and sources, as JSON or Markdown, to stdout or a file. */
import fs from 'node:fs';
import type { Command } from 'commander';
import { commandContext, type GlobalOptions } from '../context.js';
import { count } from '../../core/count.js';
import { MemError } from '../../core/errors.js';
import { garbledMessage, loadUtf8Entries } from '../../entries/store.js';
import { evidenceOf, exportJson, exportMarkdown, writeExport } from '../../jobs/export.js';

export function registerExport(program: Command): void {
  program
    .command('export')
    .description('every entry with its fields and sources (JSON or Markdown), to stdout or --out FILE')
    .option('--format <format>', 'json | md', 'json')
    .option(
      '--out <file>',
      'write to this file (outside the memory folders, the configuration and .git) instead of stdout',
    )
    .option('--force', 'replace an --out file that is not a previous export')
    .option('--with-evidence', "add each entry's cited transcript turns (redacted), as `mem source` shows them")
    .addHelpText(
      'after',
      "\nExamples:\n  mem export > memory-export.json\n  mem export --format md --out ~/backup/memory.md\n  mem export --with-evidence | jq '.entries[0].evidence'",
    )
    .action(async (o: { format: string; out?: string; force?: boolean; withEvidence?: boolean }, cmd: Command) => {
      const { workspace, loaded, now, out } = commandContext(cmd.optsWithGlobals<GlobalOptions>());
      if (o.format !== 'json' && o.format !== 'md')
        throw new MemError('USAGE', `--format "${o.format}" is not one of json, md`);
      const { records, garbled } = await loadUtf8Entries(workspace);
      // A backup missing an entry, or holding U+FFFD for its bytes, is worse than none: refused before anything is written.
      if (garbled[0])
        throw new MemError(
          'SOURCE_UNREADABLE',
          garbledMessage(
            garbled[0],
            `nothing was exported (its bytes would come out as U+FFFD)${garbled.length > 1 ? `; ${count(garbled.length - 1, 'more entry', 'more entries')} like it` : ''}`,
          ),
        );
      const at = now.toISO({ suppressMilliseconds: true }) ?? '';
      const evidence = o.withEvidence ? await evidenceOf(records, { workspace, loaded }) : undefined;
      const data =
        o.format === 'json'
          ? JSON.stringify(exportJson(records, at, evidence), null, 2) + '\n'
          : exportMarkdown(records, at, evidence);
      // `--out /dev/stdout` is stdout (opening it fails when stdout is a socket): no summary in the data.
      if (o.out && !isStdout(o.out)) {
        const abs = await writeExport(workspace, o.out, data, o.force === true);
        out.json({ out: abs, format: o.format, count: records.length });
        out.line(`exported ${records.length} entries to ${abs}`);
      } else process.stdout.write(data);
    });
}

/** Whether a path is the file, pipe, socket or terminal that stdout writes to. */
function isStdout(file: string): boolean {
  try {
    const a = fs.statSync(file);
    const b = fs.fstatSync(1);
    return a.dev === b.dev && a.ino === b.ino;
  } catch {
    return false;
  }
}
