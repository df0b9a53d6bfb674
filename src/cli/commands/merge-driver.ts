/**
 * `mem merge-driver %O %A %B %P`: the git merge driver for memory files (docs/operations.md). git
 * hands it the base, ours and theirs as temp files; the union by entry id is written to ours and the
 * exit status is 0, so a memory file never ends up with conflict markers. A side that is not UTF-8
 * is not merged: ours is left as it is, with one line and exit 1, and git marks a conflict. What the
 * merge could not keep of theirs (a front-matter key both sides changed differently) is one warning
 * line on stderr, as is each text block the sides disagree on, and each id the result holds in
 * entries with different text (kept, but worth a look by hand), each entry both sides changed in the
 * same field (ours kept, theirs under `merge_conflict:`), and each id a side's entry lost.
 * MEMORY.md, the weekly logs and the wrap-ups have merges of their own (git/merge-file.ts). The ids
 * a daily file's merge renamed are recorded under the git dir for `mem merge-finish`, the post-merge
 * hook, which renames their citations in the files git took whole without this driver.
 */
import fs from 'node:fs';
import type { Command } from 'commander';
import { outputFor, type GlobalOptions } from '../context.js';
import { describeError, MemError } from '../../core/errors.js';
import { decodeUtf8 } from '../../core/strict-utf8.js';
import type { MergedFile } from '../../git/merge-entries.js';
import { outerMergeOf, renamesOfMerge } from '../../git/merge-context.js';
import { recordRenames } from '../../git/merge-record.js';
import { citesEntries, mergeByKind, mergeKindOf } from '../../git/merge-file.js';
import type { IdRenames } from '../../git/merge-ids.js';
import type { TextConflict } from '../../git/merge-text-blocks.js';
import type { Output } from '../../terminal/output.js';
import { writeFileAtomic } from '../../write/atomic.js';

export function registerMergeDriver(program: Command): void {
  program
    .command('merge-driver')
    .argument('<base>', 'common ancestor (%O)')
    .argument('<ours>', 'our version, replaced by the result (%A)')
    .argument('<theirs>', 'their version (%B)')
    .argument('[path]', "the file's path in the repository (%P), for messages")
    .description(
      'git merge driver for memory files: daily files by entry id and field, MEMORY.md by cited item, wrap-ups and weekly logs by section; never conflict markers (set up by "mem init --git")',
    )
    .addHelpText(
      'after',
      '\nSet up (what "mem init --git" does):\n  git config merge.memfold.name "memfold: union of memory entries by id"\n  git config merge.memfold.driver "mem merge-driver %O %A %B %P"\n  printf \'memory/**/*.md merge=memfold\\n/MEMORY.md merge=memfold\\nsecond-brain/summaries/*.md merge=memfold\\n\' >> .gitattributes',
    )
    .action(
      async (
        basePath: string,
        oursPath: string,
        theirsPath: string,
        file: string | undefined,
        _o: unknown,
        cmd: Command,
      ) => {
        const out = outputFor(cmd.optsWithGlobals<GlobalOptions>());
        // git always hands three existing files (an empty base for add/add): a missing one is a mistyped
        // hand call, refused before anything is written.
        const read = (p: string, what: string) => {
          const st = fs.statSync(p, { throwIfNoEntry: false });
          if (!st?.isFile())
            throw new MemError(
              'USAGE',
              `the ${what} file ${p} ${st ? 'is not a file' : 'does not exist'} (git runs "mem merge-driver %O %A %B %P" with three existing files)`,
            );
          return fs.readFileSync(p);
        };
        const name = file ?? oursPath;
        const bytes = {
          base: read(basePath, 'base'),
          ours: read(oursPath, 'ours'),
          theirs: read(theirsPath, 'theirs'),
        };
        const texts = {
          base: textOf(bytes.base, 'base', name),
          ours: textOf(bytes.ours, 'ours', name),
          theirs: textOf(bytes.theirs, 'theirs', name),
        };
        const kind = mergeKindOf(name);
        const renames = file && citesEntries(kind) ? await renamesOfMerge(file, texts.ours, texts.theirs) : undefined;
        const merged = mergeByKind(kind, texts.base, texts.ours, texts.theirs, renames);
        // The file git handed us (DESIGN §2: the one write of merge-driver outside the workspace writer).
        await writeFileAtomic(oursPath, merged.text);
        const renamed = merged.renamed && merged.renamed.ours.size + merged.renamed.theirs.size > 0;
        if (file && renamed) await record(file, texts.ours, texts.theirs, merged.renamed!, out);
        if (merged.frontMatterConflict)
          out.warn(`merge-driver: ${name}: ${lostFrontMatter(merged.frontMatterConflict)}`);
        for (const c of merged.textConflicts ?? []) out.warn(`merge-driver: ${name}: ${textConflict(c)}`);
        for (const id of merged.sharedIds ?? [])
          out.warn(
            `merge-driver: ${name}: id ${id} is held by entries with different text: kept each; give each its own id by hand`,
          );
        for (const c of merged.fieldConflicts ?? [])
          out.warn(
            `merge-driver: ${name}: both sides changed ${c.fields.join(', ')} of ${c.id} differently: kept ${c.fields.includes('status') && c.fields.length === 1 ? 'the status further along' : 'ours'}, the other value under merge_conflict: (mem lint lists it)`,
          );
        for (const [side, map] of Object.entries(merged.renamed ?? {}))
          for (const [from, to] of map as Map<string, string>)
            out.warn(
              `merge-driver: ${name}: both sides created ${from}; ${side === 'ours' ? 'our' : 'their'} entry is now ${to} (the earlier entry keeps the id, the same on every machine); citations of it are renamed in the files this merge drives, and by the post-merge hook ("mem merge-finish") in those it takes whole from one side (docs/operations.md)`,
            );
        out.info(
          `merge-driver: merged ${name} ${kind === 'entries' ? 'by entry id' : kind === 'memory-md' ? 'by cited item' : 'by section'}`,
        );
      },
    );
}

/**
 * Keeps the renames of the outer merge for the post-merge hook (git/merge-record.ts). Failing to keep
 * them must not fail the merge: one warning, and the citing files are left for a look by hand.
 */
async function record(file: string, ours: string, theirs: string, renamed: IdRenames, out: Output): Promise<void> {
  try {
    const m = await outerMergeOf(file, ours, theirs);
    if (m) await recordRenames(m, renamed);
  } catch (err) {
    out.warn(
      `merge-driver: ${file}: the renames of this merge were not recorded for "mem merge-finish" (${describeError(err)}): citations in files one side changed alone keep the bare id (docs/operations.md)`,
    );
  }
}

/**
 * A side's text. Not UTF-8: refused before anything is written, so ours stays as it is and the exit
 * status (1) makes git mark the file as a conflict; decoding would put U+FFFD in the merge for good.
 */
function textOf(bytes: Buffer, what: string, file: string): string {
  const decoded = decodeUtf8(bytes);
  if ('text' in decoded) return decoded.text;
  throw new MemError(
    'WRITE_FAILED',
    `merge-driver: ${file}: line ${decoded.badLines[0]} of ${what} is not valid UTF-8, so it was not merged: left as ours, a conflict for git; convert the file to UTF-8 (e.g. iconv -f latin1 -t utf-8) on each branch and merge again`,
  );
}

function lostFrontMatter({ keys }: NonNullable<MergedFile['frontMatterConflict']>): string {
  if (!keys.length)
    return 'both sides changed the front matter differently and it does not merge key by key: kept ours, theirs dropped';
  return `both sides changed front matter ${keys.length === 1 ? 'key' : 'keys'} ${keys.join(', ')} differently: kept ours, theirs dropped`;
}

function textConflict({ block, edited }: TextConflict): string {
  const name = `text block ${JSON.stringify(block)}`;
  if (edited === 'both') return `both sides changed ${name} differently: kept both, ours first`;
  return edited === 'ours'
    ? `${name} changed on our side was removed on theirs: kept ours`
    : `${name} changed on their side was removed on ours: kept theirs`;
}
