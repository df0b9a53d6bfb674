/**
 * The body of `mem search "<query>"` (docs/search.md), shared by the commander command
 * (src/cli/commands/search.ts), the lean search bundle (lean-search.ts) and entry.ts, so all answer byte
 * for byte alike.
 *
 * Invariant: nothing heavy is imported before the resident server has been asked. The order is
 * fixed: query check, workspace and configuration (no zod when the config is plainly valid, no luxon
 * unless --now/MEM_NOW/--since/--until need it), -k, date bounds, then the server (src/search/server,
 * switched by MEM_SEARCH_SERVER), and only when it does not answer the search code itself. Search
 * reads only: it never writes a file.
 */
import { MemError } from '../core/errors.js';
import { loadConfigLean } from '../config/lean.js';
import { dayIn } from '../core/zone.js';
import { nowText } from '../core/now-text.js';
import type { Filters } from '../search/query/filter.js';
import type { SearchOutcome } from '../search/query/outcome.js';
import { serverSwitch, type SearchQuery } from '../search/server/protocol.js';
import { locateWorkspace } from '../workspace/locate.js';
import { outputFor } from '../terminal/output.js';
import { reportSearch } from '../search/run/report.js';
import { fitToChars, MAX_CHARS_RANGE, maxCharsOf } from '../search/query/fit-chars.js';
import type { GlobalOptions } from './context.js';

/** The filters as given (dates still unparsed), and the rest of the options. */
export interface SearchFlags extends Filters {
  k?: string;
  deep?: boolean;
  lexicalOnly?: boolean;
  maxChars?: string;
  archive?: boolean;
  source?: string;
  session?: string;
}

export const EMPTY_QUERY = 'the query is empty; give some words to search for, e.g. mem search "why postgres"';

/**
 * `serverDeclined`: the resident server was asked already (served.ts) and will not answer: not asked
 * again. True when it ranked results itself, not the server (the search code ran in this thread).
 */
export async function searchCommand(
  words: string[],
  flags: SearchFlags,
  g: GlobalOptions,
  opts: { serverDeclined?: boolean } = {},
): Promise<boolean> {
  const query = words.join(' ');
  if (!query.trim()) throw new MemError('USAGE', EMPTY_QUERY);
  if (flags.archive || flags.source !== undefined || flags.session !== undefined) {
    // Archive hits are transcript windows, each already cut to a few turns: no text budget there.
    if (flags.maxChars !== undefined)
      throw new MemError('USAGE', '--max-chars applies to memory searches, not to --archive');
    await (await import('./archive-search.js')).archiveSearchCommand(query, flags, g);
    return false;
  }
  const out = outputFor(g);
  const workspace = locateWorkspace(g.workspace);
  const loaded = await loadConfigLean(workspace);
  for (const w of loaded.warnings) out.warn(w);
  // luxon (core/time.ts) only when a moment must be parsed; a bad --now fails before -k is looked at.
  const moment = nowText(g);
  const time =
    moment !== undefined || flags.since !== undefined || flags.until !== undefined
      ? await import('../core/time.js')
      : undefined;
  const now = time?.resolveNow(moment, loaded.zone);
  const k = flags.k === undefined ? loaded.config.search.k : Number(flags.k);
  if (!Number.isInteger(k) || k < 1 || k > 50)
    throw new MemError('USAGE', `-k must be a whole number from 1 to 50 (got "${flags.k}")`);
  const maxChars = flags.maxChars === undefined ? undefined : maxCharsOf(flags.maxChars);
  if (maxChars === null)
    throw new MemError(
      'USAGE',
      `--max-chars must be a whole number from ${MAX_CHARS_RANGE[0]} to ${MAX_CHARS_RANGE[1]} (got "${flags.maxChars}")`,
    );
  const day = (v: string | undefined, what: string) => {
    if (v === undefined || !time || !now) return undefined;
    try {
      return time.parseSince(v, now)?.setZone(loaded.zone).toISODate() ?? undefined;
    } catch {
      throw new MemError('USAGE', `${what} "${v}" is not a time (use 30m, 3h, 2d, 1w, an ISO date, or all)`);
    }
  };
  const today = now ? (now.toISODate() ?? '') : dayIn(loaded.zone);
  const since = day(flags.since, '--since');
  const until = day(flags.until, '--until');
  const filters: Filters = {
    since,
    until,
    kind: flags.kind,
    status: flags.status,
    scope: flags.scope,
    path: flags.path,
  };
  const deep = !!flags.deep;
  const lexicalOnly = !!flags.lexicalOnly || !loaded.config.embedding;

  // The resident server first (src/search/server/client.ts): undefined means "answer cold".
  const served = opts.serverDeclined
    ? undefined
    : await askResidentServer(workspace, { query, k, deep, filters, today, lexicalOnly: !!flags.lexicalOnly });
  const outcome: SearchOutcome =
    served ?? (await searchCold(workspace, query, k, deep, filters, today, lexicalOnly, loaded.config));

  reportSearch(out, maxChars === undefined ? outcome : fitToChars(outcome, maxChars));
  return !served && outcome.response.results.length > 0;
}

/** MEM_SEARCH_SERVER=off (protocol.ts reads the switch; it loads node: modules only, and node:net only to connect). */
export function serverOff(env: NodeJS.ProcessEnv = process.env): boolean {
  return serverSwitch(env) === 'off';
}

async function askResidentServer(workspace: string, req: SearchQuery): Promise<SearchOutcome | undefined> {
  // MEM_SEARCH_SERVER=off: not even the client (node:net, node:crypto, node:child_process) is loaded.
  if (serverOff()) return undefined;
  const { askServer } = await import('../search/server/client.js');
  return askServer(workspace, req);
}

type Cfg = Awaited<ReturnType<typeof loadConfigLean>>['config'];

async function searchCold(
  workspace: string,
  query: string,
  k: number,
  deep: boolean,
  filters: Filters,
  today: string,
  lexicalOnly: boolean,
  config: Cfg,
): Promise<SearchOutcome> {
  const { runSearch } = await import('../search/query/search.js');
  const vectors =
    config.embedding && !lexicalOnly
      ? (await import('../search/embed/embed-query.js')).vectorRanker(workspace, config.embedding)
      : undefined;
  return runSearch({
    workspace,
    query,
    k,
    deep,
    today,
    filters,
    extraPaths: config.extraPaths,
    search: config.search,
    vectors,
  });
}
