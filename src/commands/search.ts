/**
 * `mem search "<query>"`: answers from the persisted index and writes nothing, ever. The command file
 * stays thin and imports the search code only when it runs, so `mem --help` and other commands do not
 * load it (and a lexical query never loads remark, openai or chokidar).
 */
import type { Command } from 'commander';
import { commandContext, type GlobalOptions } from '../cli/context.js';
import { c } from '../cli/output.js';
import { MemError } from '../core/errors.js';
import { parseSince } from '../core/time.js';

interface SearchFlags {
  k?: string;
  deep?: boolean;
  since?: string;
  until?: string;
  kind?: string;
  status?: string;
  scope?: string;
  path?: string;
  lexicalOnly?: boolean;
  archive?: boolean;
  source?: string;
  session?: string;
}

export function registerSearch(program: Command): void {
  program
    .command('search')
    .argument('<query...>', 'words to look for (any language; Traditional and Simplified Chinese match each other)')
    .description('search the memory (warm tier first, cold when needed); reads only, never writes')
    .option('-k, --k <n>', 'number of results, 1-50 (default: search.k from the config, else 6)')
    .option('--deep', 'search the cold tier (archive, extra paths) too, ranked together with the warm tier')
    .option('--since <when>', 'only chunks dated on or after: 30m, 3h, 2d, 1w, an ISO date, or all')
    .option('--until <when>', 'only chunks dated on or before (same forms as --since)')
    .option('--kind <kind>', 'only entries of this kind: decision, rule, architecture, note')
    .option('--status <status>', 'only entries with this status: active, superseded, archived, retracted')
    .option('--scope <scope>', 'only entries with this scope, e.g. project:shop')
    .option('--path <glob>', 'only files matching this glob, e.g. "memory/2026-11-*.md" or "**/projects/**"')
    .option('--lexical-only', 'skip embeddings even when configured (BM25 only)')
    .option('--archive', 'search the raw transcripts instead (the archive tier, built by `mem archive`; see docs/archive.md)')
    .option('--source <name>', 'with --archive: only this configured source')
    .option('--session <id>', 'with --archive: only this session')
    .addHelpText('after', [
      '',
      'Examples:',
      '  mem search "why did we move the event store"',
      '  mem search 为什么放弃 Redis 缓存 -k 3',
      '  mem search postgres --kind decision --since 2w --json',
      '  mem search "rollback script" --deep --path "memory/archive/**"',
      '',
      'Exit codes: 0 with or without results, 2 for an empty query or a bad option. See docs/search.md.',
    ].join('\n'))
    .action(async (words: string[], flags: SearchFlags, cmd: Command) => {
      const g = cmd.optsWithGlobals<GlobalOptions>();
      const query = words.join(' ');
      if (!query.trim()) throw new MemError('USAGE', 'the query is empty; give some words to search for, e.g. mem search "why postgres"');
      if (flags.archive || flags.source !== undefined || flags.session !== undefined) return (await import('../archive/command.js')).archiveSearchCommand(query, flags, g);
      const { workspace, loaded, now, out } = commandContext(g);
      const k = flags.k === undefined ? loaded.config.search.k : Number(flags.k);
      if (!Number.isInteger(k) || k < 1 || k > 50) throw new MemError('USAGE', `-k must be a whole number from 1 to 50 (got "${flags.k}")`);
      const day = (v: string | undefined, what: string) => {
        if (v === undefined) return undefined;
        try {
          return parseSince(v, now)?.setZone(loaded.zone).toISODate() ?? undefined;
        } catch {
          throw new MemError('USAGE', `${what} "${v}" is not a time (use 30m, 3h, 2d, 1w, an ISO date, or all)`);
        }
      };
      const { runSearch } = await import('../search/search.js');
      const vectors = loaded.config.embedding && !flags.lexicalOnly ? (await import('../search/embed-query.js')).vectorRanker(workspace, loaded.config.embedding) : undefined;
      const { response, notices } = await runSearch({
        workspace, query, k, deep: !!flags.deep, today: now.toISODate() ?? '',
        filters: { since: day(flags.since, '--since'), until: day(flags.until, '--until'), kind: flags.kind, status: flags.status, scope: flags.scope, path: flags.path },
        extraPaths: loaded.config.extraPaths, search: loaded.config.search, vectors,
      });
      for (const n of notices) out.warn(n);
      if (g.json) {
        out.json(response);
        return;
      }
      const { formatResults } = await import('../search/present.js');
      out.result(formatResults(response, c));
    });
}
