/** `mem watch`: keeps the search index fresh while files change (docs/search.md). */
import type { Command } from 'commander';
import { commandContext, type GlobalOptions } from '../context.js';
import { outliveOutputReaders } from '../lost-output.js';
import { MAX_TIMER_MS, MAX_TIMER_TEXT } from '../../config/timer.js';
import { MemError } from '../../core/errors.js';
import { testHook } from '../../core/test-hooks.js';

export function registerWatch(program: Command): void {
  program
    .command('watch')
    .description('watch the memory files and update the search index after changes (debounced); Ctrl-C stops')
    .option(
      '--debounce <ms>',
      'wait this long after the last change before updating (default: $MEM_WATCH_DEBOUNCE_MS, else daemon.debounceMs of the config, else 15000)',
    )
    .option('--poll', 'poll instead of native file events (network folders)')
    .option(
      '--no-server',
      'do not run the resident search server (by default mem search is answered by it while this runs)',
    )
    .addHelpText('after', '\nExamples:\n  mem watch\n  mem watch --debounce 2000 --poll')
    .action(async (flags: { debounce?: string; poll?: boolean; server?: boolean }, cmd: Command) => {
      const g = cmd.optsWithGlobals<GlobalOptions>();
      const { workspace, loaded, out } = commandContext(g);
      // The daemon's `daemon.debounceMs` setting, when present, is the configured default.
      const configured = (loaded.config as { daemon?: { debounceMs?: number } }).daemon?.debounceMs;
      const raw = flags.debounce ?? (process.env.MEM_WATCH_DEBOUNCE_MS || String(configured ?? 15_000));
      // Digits only: Number("") is 0, and a time past MAX_TIMER_MS would fire at once.
      const debounceMs = /^\d+$/.test(raw) ? Number(raw) : NaN;
      if (!(debounceMs <= MAX_TIMER_MS))
        throw new MemError(
          'USAGE',
          `--debounce must be a whole number of milliseconds, ${MAX_TIMER_TEXT} (got "${raw}")`,
        );
      outliveOutputReaders();
      const { startWatch } = await import('../../search/run/watch.js');
      const { formatIndexSummary } = await import('../../search/run/present.js');
      const note = (text: string) => {
        if (!g.quiet) process.stderr.write(`watch: ${text}\n`);
      };
      const watching = await startWatch(workspace, loaded, {
        debounceMs,
        poll: !!flags.poll,
        pollIntervalMs: 2000,
        simulateError: testHook('MEM_WATCH_SIMULATE_ERROR'),
        onNote: note,
        onRun: (run) => {
          for (const w of run.result.warnings) out.warn(w);
          if (g.json)
            process.stdout.write(
              JSON.stringify({ tiers: run.result.tiers, embeddings: run.embeddings, seconds: run.seconds }) + '\n',
            );
          else out.result(formatIndexSummary(run.result, run.embeddings, run.seconds));
        },
      });
      note(`watching ${workspace} (debounce ${debounceMs / 1000} s); Ctrl-C or SIGTERM stops`);
      // The resident search server answers `mem search` while this runs (docs/search.md); it is a
      // child process that never outlives this one.
      const server = (
        flags.server === false
          ? Promise.resolve({ note: 'no search server (--no-server)' } as const)
          : import('../../search/server/host.js').then((m) => m.hostSearchServer(workspace, 'watch'))
      ).then((s) => {
        note('hosted' in s ? `search server on ${s.hosted.address} (pid ${s.hosted.pid})` : s.note);
        return s;
      });
      await new Promise<void>((resolve) => {
        const stop = (sig: string) => {
          note(`${sig}: stopping`);
          const serverStopped = server.then((s) => ('hosted' in s ? s.hosted.stop() : undefined));
          void Promise.all([watching.stop(), serverStopped]).then(() => resolve());
        };
        process.once('SIGINT', () => stop('SIGINT'));
        process.once('SIGTERM', () => stop('SIGTERM'));
      });
      note('stopped');
    });
}
