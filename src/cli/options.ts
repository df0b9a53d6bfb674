/**
 * The one option table of the commands the fast path answers (issue 30): each option's flags,
 * description and default, written once. Commander registers them from here (main.ts, commands/*.ts)
 * and the fast path (fast-args.ts) derives its node:util parseArgs configuration from the same rows,
 * so the two can never disagree on which options a command takes or which take a value.
 * No imports: the fast bundles load it.
 */

export interface OptionRow {
  /** As commander reads it: `-k, --k <n>`, `--deep`, `--budget <tokens>`. */
  flags: string;
  description: string;
  default?: string;
}

export const GLOBAL_OPTIONS: readonly OptionRow[] = [
  {
    flags: '-C, --workspace <dir>',
    description:
      'workspace folder (default: $MEM_WORKSPACE, else the nearest folder above holding mem.config.json, else defaultWorkspace in the user-level config)',
  },
  { flags: '--json', description: 'machine-readable output on stdout' },
  { flags: '-q, --quiet', description: 'print only errors and requested results' },
  { flags: '-v, --verbose', description: 'print details on stderr' },
  {
    flags: '--now <time>',
    description: 'run as of this ISO 8601 moment (also $MEM_NOW); without an offset, in the configured time zone',
  },
];

export const COMMAND_OPTIONS = {
  search: [
    { flags: '-k, --k <n>', description: 'number of results, 1-50 (default: search.k from the config, else 6)' },
    {
      flags: '--deep',
      description: 'search the cold tier (archive, extra paths) too, ranked together with the warm tier',
    },
    { flags: '--since <when>', description: 'only chunks dated on or after: 30m, 3h, 2d, 1w, an ISO date, or all' },
    { flags: '--until <when>', description: 'only chunks dated on or before (same forms as --since)' },
    {
      flags: '--kind <kind>',
      description:
        'only entries of this kind: decision, rule, architecture (arch), note, preference (pref), goal, task, lesson',
    },
    {
      flags: '--status <status>',
      description: 'only entries with this status: active, superseded, archived, retracted',
    },
    { flags: '--scope <scope>', description: 'only entries with this scope, e.g. project:shop' },
    {
      flags: '--path <glob>',
      description: 'only files matching this glob, e.g. "memory/2026-11-*.md" or "**/projects/**"',
    },
    { flags: '--lexical-only', description: 'skip embeddings even when configured (BM25 only)' },
    {
      flags: '--max-chars <n>',
      description:
        'at most this much result text in all, 200-100000: hits past it are cut to their matching lines or left out',
    },
    {
      flags: '--archive',
      description: 'search the raw transcripts instead (the archive tier, built by `mem archive`; see docs/archive.md)',
    },
    { flags: '--source <name>', description: 'with --archive: only this configured source' },
    { flags: '--session <id>', description: 'with --archive: only this session' },
  ],
  index: [{ flags: '--rebuild', description: 'drop the index and build it again from every file' }],
  context: [
    {
      flags: '--scope <scope>',
      description:
        "scope of layer 1, e.g. project:shop (default: the current folder's scope: the scopes mapping, the git origin, else the folder name)",
    },
    { flags: '--query <text>', description: 'also include memories a search for this finds (layer 2)' },
    {
      flags: '--budget <tokens>',
      description: 'token budget (o200k_base tokens), 50-200000 (default 2000; 600 for a prompt hook)',
    },
    { flags: '--format <format>', description: 'md | json (--json is the same as --format json)', default: 'md' },
    {
      flags: '--evidence',
      description:
        'add up to 2 short transcript excerpts to each query item with confidence below 0.8, inside the budget',
    },
    {
      flags: '--hook <host>',
      description:
        "claude | codex: read the host's hook JSON on stdin (SessionStart: the pack for its cwd; UserPromptSubmit: only hits for the prompt, budget 600); any failure is one stderr line and exit 0",
    },
  ],
  get: [],
  trace: [],
  status: [
    {
      flags: '--strict',
      description: 'exit 1 when a governance threshold is exceeded or the last run of a job failed (for cron mail)',
    },
    {
      flags: '--fix',
      description:
        'apply the safe governance actions: split oversized daily files into memory/recent/, summaries into volumes',
    },
  ],
} satisfies Record<string, readonly OptionRow[]>;

export type FastCommand = keyof typeof COMMAND_OPTIONS;

/** What a row says, read from its flags: the long name, the short letter, and whether it takes a value. */
export function optionShape(row: OptionRow): { long: string; short?: string; value: boolean } {
  const m = /^(?:-(\w), )?--([\w-]+)(?: <[^>]+>)?$/.exec(row.flags);
  if (!m) throw new Error(`option flags "${row.flags}" are not "-x, --name <value>"`);
  return { long: m[2]!, ...(m[1] ? { short: m[1] } : {}), value: row.flags.includes('<') };
}

/** The camelCase key commander gives an option in opts(): `--lexical-only` → lexicalOnly. */
export const attributeName = (long: string) => long.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());

/** Registers rows on a commander command (typed loosely: this file imports nothing). */
export function addOptions<C extends { option(flags: string, description: string, value?: string): C }>(
  cmd: C,
  rows: readonly OptionRow[],
): C {
  for (const r of rows) cmd.option(r.flags, r.description, r.default);
  return cmd;
}
