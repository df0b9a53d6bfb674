/**
 * `mem merge-driver %O %A %B %P`: the git merge driver for memory files (docs/operations.md). git
 * hands it the base, ours and theirs as temp files; the union by entry id is written to ours and the
 * exit status is 0, so a memory file never ends up with conflict markers. What the merge could not
 * keep of theirs (a front-matter key both sides changed differently) is one warning line on stderr,
 * as is each text block the sides disagree on, and each id the result holds in entries with different
 * text (kept, but worth a look by hand).
 */
import fs from 'node:fs';
import type { Command } from 'commander';
import { outputFor, type GlobalOptions } from '../cli/context.js';
import { MemError } from '../core/errors.js';
import { mergeMemoryFile, type MergedFile } from '../git/merge-entries.js';
import type { TextConflict } from '../git/merge-text-blocks.js';
import { writeFileAtomic } from '../write/atomic.js';

export function registerMergeDriver(program: Command): void {
  program
    .command('merge-driver')
    .argument('<base>', 'common ancestor (%O)')
    .argument('<ours>', 'our version, replaced by the result (%A)')
    .argument('<theirs>', 'their version (%B)')
    .argument('[path]', 'the file\'s path in the repository (%P), for messages')
    .description('git merge driver for memory/*.md: the union of entries by id, never conflict markers (set up by "mem init --git")')
    .addHelpText('after', '\nSet up (what "mem init --git" does):\n  git config merge.memfold.name "memfold: union of memory entries by id"\n  git config merge.memfold.driver "mem merge-driver %O %A %B %P"\n  echo "memory/**/*.md merge=memfold" >> .gitattributes')
    .action(async (basePath: string, oursPath: string, theirsPath: string, file: string | undefined, _o: unknown, cmd: Command) => {
      const out = outputFor(cmd.optsWithGlobals<GlobalOptions>());
      // git always hands three existing files (an empty base for add/add): a missing one is a mistyped
      // hand call, refused before anything is written.
      const read = (p: string, what: string) => {
        const st = fs.statSync(p, { throwIfNoEntry: false });
        if (!st?.isFile()) throw new MemError('USAGE', `the ${what} file ${p} ${st ? 'is not a file' : 'does not exist'} (git runs "mem merge-driver %O %A %B %P" with three existing files)`);
        return fs.readFileSync(p, 'utf8');
      };
      const merged = mergeMemoryFile(read(basePath, 'base'), read(oursPath, 'ours'), read(theirsPath, 'theirs'));
      // The file git handed us (DESIGN §2: the one write of merge-driver outside the workspace writer).
      await writeFileAtomic(oursPath, merged.text);
      if (merged.frontMatterConflict) out.warn(`merge-driver: ${file ?? oursPath}: ${lostFrontMatter(merged.frontMatterConflict)}`);
      for (const c of merged.textConflicts ?? []) out.warn(`merge-driver: ${file ?? oursPath}: ${textConflict(c)}`);
      for (const id of merged.sharedIds ?? []) out.warn(`merge-driver: ${file ?? oursPath}: id ${id} is held by entries with different text: kept each; give each its own id by hand`);
      out.info(`merge-driver: merged ${file ?? oursPath} by entry id`);
    });
}

function lostFrontMatter({ keys }: NonNullable<MergedFile['frontMatterConflict']>): string {
  if (!keys.length) return 'both sides changed the front matter differently and it does not merge key by key: kept ours, theirs dropped';
  return `both sides changed front matter ${keys.length === 1 ? 'key' : 'keys'} ${keys.join(', ')} differently: kept ours, theirs dropped`;
}

function textConflict({ block, edited }: TextConflict): string {
  const name = `text block ${JSON.stringify(block)}`;
  if (edited === 'both') return `both sides changed ${name} differently: kept both, ours first`;
  return edited === 'ours' ? `${name} changed on our side was removed on theirs: kept ours` : `${name} changed on their side was removed on ours: kept theirs`;
}
