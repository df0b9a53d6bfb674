/**
 * Which command lines the fast path may answer without commander: `mem search|index|context|get|trace|status`
 * with only the options the command takes, read by node:util's parseArgs from the one option table
 * (options.ts) that commander registers too.
 *
 * Invariant: a command line is routed here only when commander would run the command's action with
 * the same words and options. Anything else (help, --version, an unknown option, a missing value, a
 * wrong number of arguments, `--` before the command) returns undefined and the full CLI (main.ts)
 * handles it, errors and help included. MEM_LEAN_CLI=0 sends everything to the full CLI.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { GlobalOptions } from './context.js';
import type { SearchFlags } from './search-command.js';
import {
  attributeName,
  COMMAND_OPTIONS,
  GLOBAL_OPTIONS,
  optionShape,
  type FastCommand,
  type OptionRow,
} from './options.js';

type ParseOptions = NonNullable<ParseArgsConfig['options']>;

function parseConfig(rows: readonly OptionRow[]): ParseOptions {
  const out: ParseOptions = {};
  for (const r of rows) {
    const s = optionShape(r);
    out[s.long] = { type: s.value ? 'string' : 'boolean', ...(s.short ? { short: s.short } : {}) };
  }
  return out;
}

/** Help and version are commander's: declared so that asking for them is seen and left to commander. */
const ASKS = { help: { type: 'boolean', short: 'h' }, version: { type: 'boolean', short: 'V' } } as const;
const GLOBAL = { ...parseConfig(GLOBAL_OPTIONS), ...ASKS };
const GLOBAL_NAMES = GLOBAL_OPTIONS.map((r) => optionShape(r).long);
/** Global options that take a value: the word after them is not the command. */
const VALUE_WORDS = new Set(
  GLOBAL_OPTIONS.flatMap((r) => {
    const s = optionShape(r);
    return s.value ? [`--${s.long}`, ...(s.short ? [`-${s.short}`] : [])] : [];
  }),
);

/** How many words each command takes after its name: [at least, at most]. */
const WORDS: Record<FastCommand, [number, number]> = {
  search: [1, Infinity],
  index: [0, 0],
  context: [0, 0],
  get: [1, 1],
  trace: [1, 1],
  status: [0, 0],
};

export interface FastRoute<C extends FastCommand = FastCommand> {
  command: C;
  global: GlobalOptions;
  words: string[];
  /** The command's options under commander's names (`lexicalOnly`), defaults filled in as commander fills them. */
  flags: Record<string, string | boolean>;
}

/** The command word: the first argument that is neither an option nor a global option's value. */
function commandWord(args: string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') return undefined;
    if (VALUE_WORDS.has(a)) i++;
    else if (!a.startsWith('-')) return a;
  }
  return undefined;
}

export function fastRoute(args: string[], env: NodeJS.ProcessEnv = process.env): FastRoute | undefined {
  if (env.MEM_LEAN_CLI === '0') return undefined;
  const command = commandWord(args);
  if (!command || !Object.hasOwn(COMMAND_OPTIONS, command)) return undefined;
  const name = command as FastCommand;
  const rows = COMMAND_OPTIONS[name] as readonly OptionRow[];
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: { ...GLOBAL, ...parseConfig(rows) },
      allowPositionals: true,
      strict: true,
      tokens: true,
    });
  } catch {
    return undefined;
  }
  const { positionals, tokens } = parsed;
  const v = parsed.values as Record<string, string | boolean | undefined>;
  const first = tokens.findIndex((t) => t.kind === 'positional' || t.kind === 'option-terminator');
  if (first < 0 || tokens[first]!.kind !== 'positional' || positionals[0] !== name || v.help || v.version)
    return undefined;
  const words = positionals.slice(1);
  const [least, most] = WORDS[name];
  if (words.length < least || words.length > most) return undefined;
  const global: Record<string, string | boolean> = {};
  for (const long of GLOBAL_NAMES) if (v[long] !== undefined) global[attributeName(long)] = v[long]!;
  const flags: Record<string, string | boolean> = {};
  for (const r of rows) {
    const long = optionShape(r).long;
    const value = v[long] ?? r.default;
    if (value !== undefined) flags[attributeName(long)] = value;
  }
  return { command: name, global: global as GlobalOptions, words, flags };
}

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

/** `mem search <words…>` with its options only; anything else goes to commander. */
export function leanRoute(args: string[], env: NodeJS.ProcessEnv = process.env): SearchRoute | undefined {
  const r = fastRoute(args, env);
  return r?.command === 'search'
    ? { command: 'search', global: r.global, words: r.words, flags: r.flags as SearchFlags }
    : undefined;
}

/** `mem index [--rebuild]` with global options only; anything else goes to commander. */
export function leanIndexRoute(args: string[], env: NodeJS.ProcessEnv = process.env): IndexRoute | undefined {
  const r = fastRoute(args, env);
  return r?.command === 'index'
    ? { command: 'index', global: r.global, flags: r.flags as IndexRoute['flags'] }
    : undefined;
}
