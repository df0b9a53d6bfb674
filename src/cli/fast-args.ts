/**
 * Which command lines the lean entry (entry.ts) may answer without commander: `mem search` with
 * only options it knows, spelled in ways node:util's parseArgs reads exactly as commander does.
 *
 * Invariant: a command line is routed here only when commander would run the search action with the
 * same words and options. Anything else (help, --version, an unknown or ambiguous option, a missing
 * value, a missing query, `--` before the command) returns undefined and the full CLI (main.ts)
 * handles it, errors and help included. MEM_LEAN_CLI=0 sends everything to the full CLI.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { GlobalOptions } from './context.js';
import type { SearchFlags } from './search-command.js';

const GLOBAL = {
  workspace: { type: 'string', short: 'C' },
  json: { type: 'boolean' },
  quiet: { type: 'boolean', short: 'q' },
  verbose: { type: 'boolean', short: 'v' },
  now: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'V' },
} as const;

const SEARCH = {
  k: { type: 'string', short: 'k' },
  deep: { type: 'boolean' },
  since: { type: 'string' },
  until: { type: 'string' },
  kind: { type: 'string' },
  status: { type: 'string' },
  scope: { type: 'string' },
  path: { type: 'string' },
  'lexical-only': { type: 'boolean' },
  archive: { type: 'boolean' },
  source: { type: 'string' },
  session: { type: 'string' },
} as const;

export interface SearchRoute {
  command: 'search';
  global: GlobalOptions;
  words: string[];
  flags: SearchFlags;
}

export interface IndexRoute {
  command: 'index';
  global: GlobalOptions;
  flags: { rebuild?: boolean };
}

const INDEX = { rebuild: { type: 'boolean' } } as const;

/** The global options plus a command's, read strictly as commander reads them; undefined: leave it to commander. */
function parse<O extends ParseArgsConfig['options']>(args: string[], options: O, env: NodeJS.ProcessEnv) {
  if (env.MEM_LEAN_CLI === '0') return undefined;
  try {
    return parseArgs({ args, options: { ...GLOBAL, ...options }, allowPositionals: true, strict: true, tokens: true } as const);
  } catch {
    return undefined;
  }
}

/** `mem index [--rebuild]` with global options only; anything else goes to commander. */
export function leanIndexRoute(args: string[], env: NodeJS.ProcessEnv = process.env): IndexRoute | undefined {
  const parsed = parse(args, INDEX, env);
  if (!parsed) return undefined;
  const { values: v, positionals, tokens } = parsed;
  if (tokens.some((t) => t.kind === 'option-terminator') || positionals.length !== 1 || positionals[0] !== 'index' || v.help || v.version) return undefined;
  const global: GlobalOptions = { workspace: v.workspace, json: v.json, quiet: v.quiet, verbose: v.verbose, now: v.now };
  return { command: 'index', global: strip(global), flags: strip({ rebuild: v.rebuild }) };
}

export function leanRoute(args: string[], env: NodeJS.ProcessEnv = process.env): SearchRoute | undefined {
  const parsed = parse(args, SEARCH, env);
  if (!parsed) return undefined;
  const { values: v, positionals, tokens } = parsed;
  const first = tokens.findIndex((t) => t.kind === 'positional' || t.kind === 'option-terminator');
  if (first < 0 || tokens[first]!.kind !== 'positional' || positionals[0] !== 'search' || positionals.length < 2) return undefined;
  if (v.help || v.version) return undefined;
  const global: GlobalOptions = { workspace: v.workspace, json: v.json, quiet: v.quiet, verbose: v.verbose, now: v.now };
  const flags: SearchFlags = {
    k: v.k, deep: v.deep, since: v.since, until: v.until, kind: v.kind, status: v.status, scope: v.scope, path: v.path,
    lexicalOnly: v['lexical-only'], archive: v.archive, source: v.source, session: v.session,
  };
  return { command: 'search', global: strip(global), words: positionals.slice(1), flags: strip(flags) };
}

/** Commander leaves options that were not given out of opts(); so does the lean route. */
function strip<T extends object>(o: T): T {
  for (const k of Object.keys(o) as (keyof T)[]) if (o[k] === undefined) delete o[k];
  return o;
}
