/**
 * Every command, by name, with the module that registers it. The entry point loads only the module
 * of the command being run (all of them for help), so `mem search` never pays for the LLM client,
 * remark, chokidar or node-cron that other commands need.
 */
import type { Command } from 'commander';

type Register = (program: Command) => void;

export const COMMANDS: Record<string, () => Promise<Register>> = {
  init: async () => (await import('./commands/init.js')).registerInit,
  config: async () => (await import('./commands/config.js')).registerConfig,
  microsync: async () => (await import('./commands/microsync.js')).registerMicrosync,
  remember: async () => (await import('./commands/remember.js')).registerRemember,
  get: async () => (await import('./commands/get.js')).registerGet,
  source: async () => (await import('./commands/source.js')).registerSource,
  archive: async () => (await import('./commands/archive.js')).registerArchive,
  lint: async () => (await import('./commands/lint.js')).registerLint,
  search: async () => (await import('./commands/search.js')).registerSearch,
  index: async () => (await import('./commands/index-cmd.js')).registerIndex,
  watch: async () => (await import('./commands/watch.js')).registerWatch,
  wrapup: async () => (await import('./commands/wrapup.js')).registerWrapup,
  compound: async () => (await import('./commands/compound.js')).registerCompound,
  context: async () => (await import('./commands/context.js')).registerContext,
  mcp: async () => (await import('./commands/mcp.js')).registerMcp,
  trace: async () => (await import('./commands/trace.js')).registerTrace,
  tick: async () => (await import('./commands/tick.js')).registerTick,
  forget: async () => (await import('./commands/forget.js')).registerForget,
  restore: async () => (await import('./commands/restore.js')).registerRestore,
  confirm: async () => (await import('./commands/confirm.js')).registerConfirm,
  export: async () => (await import('./commands/export.js')).registerExport,
  import: async () => (await import('./commands/import.js')).registerImport,
  status: async () => (await import('./commands/status.js')).registerStatus,
  daemon: async () => (await import('./commands/daemon.js')).registerDaemon,
  schedule: async () => (await import('./commands/schedule.js')).registerSchedule,
  'merge-driver': async () => (await import('./commands/merge-driver.js')).registerMergeDriver,
  'merge-finish': async () => (await import('./commands/merge-finish.js')).registerMergeFinish,
};

/** Global options that take a value: their value is not the command name. */
const VALUE_OPTIONS = new Set(['-C', '--workspace', '--now']);

/** The command named on the command line, or undefined (help, version, an unknown word). */
export function commandName(args: string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (VALUE_OPTIONS.has(a)) i++;
    else if (!a.startsWith('-')) return Object.hasOwn(COMMANDS, a) ? a : undefined;
  }
  return undefined;
}

/** Commands that run a job: each run appends a line to `.mem/logs/jobs.jsonl`. */
export const JOB_COMMANDS: ReadonlySet<string> = new Set([
  'microsync',
  'remember',
  'wrapup',
  'compound',
  'forget',
  'index',
]);
