/**
 * `mem forget <id...> | --query Q`: soft by default (status retracted, kept for audit, hidden from
 * context and MCP search); `--hard` removes the entries everywhere and purges `.mem/`, after a
 * confirmation on a terminal or with `--yes` (with no terminal and no `--yes` it refuses).
 */
import readline from 'node:readline/promises';
import type { Command } from 'commander';
import { commandContext, type GlobalOptions } from '../context.js';
import { c } from '../../terminal/output.js';
import { MemError } from '../../core/errors.js';
import { runForget } from '../../jobs/forget.js';
import { type ForgetResult } from '../../jobs/forget-types.js';
import { refreshIndex } from './refresh-index.js';
import { count } from '../../core/count.js';

interface ForgetFlags {
  query?: string;
  k?: string;
  hard?: boolean;
  yes?: boolean;
  dryRun?: boolean;
}

function describe(r: ForgetResult): string {
  const verb = r.dryRun ? 'would ' : '';
  if (r.mode === 'soft') {
    const lines = r.retracted.map(
      (x) =>
        `${verb}retract ${x.id} (${x.from}) in ${x.file}${x.entries > 1 ? `: ${x.entries} entries share this id` : ''}`,
    );
    for (const id of r.alreadyRetracted)
      lines.push(
        `${id} is already retracted${r.resumed.includes(id) ? '; the weekly log did not say so (a run stopped part-way): logged now' : ''}`,
      );
    if (r.log) lines.push(`logged in ${r.log}; undo with "mem restore <id>"`);
    return lines.join('\n');
  }
  // Every id by name, first: a --query run removes what a search chose, not what the user typed.
  const lines = r.ids
    .filter((id) => !r.resumed.includes(id))
    .map((id) => `${r.dryRun ? 'would remove' : 'removed'} ${id}`);
  lines.push(
    ...r.resumed.map(
      (id) =>
        `${id}: its entry is already gone (an earlier "mem forget --hard" stopped part-way); ${verb}remove what still names it`,
    ),
  );
  lines.push(
    ...r.files.map(
      (f) => `${verb}remove from ${f.file}: ${count(f.entries, 'entry', 'entries')}, ${count(f.lines, 'other line')}`,
    ),
  );
  for (const k of r.kept) {
    lines.push(
      `left as is: ${k.file}:${k.line} (${k.entry ? `entry ${k.entry}` : 'a heading'}) ${k.why}; forget changes only the named entries: edit it by hand${k.entry ? ' or forget that entry too' : ''}`,
    );
  }
  for (const d of r.derived) lines.push(`${verb}purge ${d}`);
  lines.push(`${verb}rebuild .mem/index without them`);
  if (!r.dryRun) {
    lines.push(
      '',
      'Removed from the working tree. Git history still holds them; to purge it too:',
      '  1. commit this change;',
      '  2. list each id and text to erase in a file, one per line (e.g. "<id>==>[forgotten]"),',
      '     and run: git filter-repo --replace-text <that file>   (https://github.com/newren/git-filter-repo)',
      '  3. force-push, and have every clone re-clone (old clones and forks keep the history).',
      'Transcripts are not touched, but no microsync, wrapup or compound learns the entries from them again, on any machine',
      'once memory/.forgotten is committed (salted one-way hashes, no text); to have one back, say it with "mem remember".',
    );
  }
  return lines.join('\n');
}

async function confirm(question: string): Promise<boolean> {
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}

export function registerForget(program: Command): void {
  program
    .command('forget')
    .argument('[ids...]', 'entry ids to forget')
    .description(
      'retract entries (kept for audit, hidden from context); --hard removes them from every file and purges .mem/',
    )
    .option('--query <q>', 'forget the entries a search for Q finds (see -k); check with --dry-run first')
    .option('-k, --k <n>', 'with --query: how many hits to forget, 1-50', '3')
    .option('--hard', 'remove the entries from every Markdown file and purge them from .mem/ (asks first)')
    .option('-y, --yes', 'do not ask before --hard (required when there is no terminal)')
    .option('--dry-run', 'print what would change, change nothing')
    .addHelpText(
      'after',
      '\nExamples:\n  mem forget NOTE-20261120-the-staging-db-password-rotates-on-mondays\n  mem forget --query "staging password" --hard --dry-run   # names every id it would remove\n  mem forget NOTE-20261120-the-staging-db-password-rotates-on-mondays --hard --yes\n\nUndo a soft forget with "mem restore <id>". A hard forget cannot be undone (git history aside).',
    )
    .action(async (ids: string[], o: ForgetFlags, cmd: Command) => {
      const g = cmd.optsWithGlobals<GlobalOptions>();
      const { workspace, loaded, now, out } = commandContext(g);
      if (!ids.length && !o.query)
        throw new MemError('USAGE', 'name the entries to forget (ids) or give --query "..."');
      if (ids.length && o.query) throw new MemError('USAGE', 'give ids or --query, not both');
      let targets = ids;
      if (o.query) {
        const k = Number(o.k);
        if (!Number.isInteger(k) || k < 1 || k > 50)
          throw new MemError('USAGE', `-k must be a whole number from 1 to 50 (got "${o.k}")`);
        const { runSearch } = await import('../../search/index.js');
        const { response } = await runSearch({
          workspace,
          query: o.query,
          k: 50,
          deep: true,
          filters: {},
          today: now.toISODate() ?? '',
          extraPaths: loaded.config.extraPaths,
          search: loaded.config.search,
        });
        targets = [
          ...new Set(response.results.filter((r) => r.id && (o.hard || r.status !== 'retracted')).map((r) => r.id!)),
        ].slice(0, k);
        if (!targets.length) {
          out.json({ mode: o.hard ? 'hard' : 'soft', dryRun: !!o.dryRun, ids: [], query: o.query });
          out.line(`no entry matches "${o.query}"; nothing changed`);
          return;
        }
      }
      // What a search chose is named before anything is removed, also with --yes (a killed run leaves the names on screen).
      if (o.query && o.hard && !o.dryRun && o.yes)
        out.line(
          `--query "${o.query}" chose ${targets.length === 1 ? 'this entry' : `these ${targets.length} entries`}; removing:\n${targets.map((id) => `  ${id}`).join('\n')}`,
        );
      if (o.hard && !o.dryRun && !o.yes) {
        if (!process.stdin.isTTY || !process.stderr.isTTY)
          throw new MemError(
            'USAGE',
            'forget --hard removes entries for good: there is no terminal to confirm on, so pass --yes (try --dry-run first)',
          );
        const plan = await runForget({ workspace, loaded, now, ids: targets, hard: true, dryRun: true });
        process.stderr.write(describe(plan) + '\n');
        if (!(await confirm(`${c.red('Remove')} ${targets.join(', ')} for good? [y/N] `))) {
          out.line('not confirmed; nothing changed');
          return;
        }
      }
      const r = await runForget({ workspace, loaded, now, ids: targets, hard: !!o.hard, dryRun: !!o.dryRun });
      for (const w of r.warnings) out.warn(w);
      if (!r.dryRun && r.mode === 'soft' && r.retracted.length) await refreshIndex(workspace, loaded, out);
      out.json(r);
      // The dry run's plan is what was asked for; a run's report is quieted by -q.
      if (r.dryRun) out.result(describe(r));
      else out.line(describe(r));
    });
}
