/**
 * The CLI side of `mem search --archive`: flags in, hits out. Kept apart from the search command so
 * a default search never loads the archive code; the archive loads only the search engine's ranking
 * (and its vector scoring with archive.embed), not the Markdown tiers' scan or chunker. Once the
 * flags are checked, a running resident server is asked first (it answers with archiveAnswer, plugged
 * in by cli/search-server.ts); either answer is printed by archive-report.ts, so both print alike.
 */
import type { GlobalOptions } from './context.js';
import { locateWorkspace } from '../workspace/locate.js';
import { outputFor } from '../terminal/output.js';
import { loadConfigLean } from '../config/lean.js';
import { MemError } from '../core/errors.js';
import { archiveQueryVector } from '../archive/query-vector.js';
import { searchArchive } from '../archive/search.js';
import { archiveIn, reportArchive, type ArchiveAnswer } from './archive-report.js';
import { serverSwitch, type ArchiveAsk } from '../search/server/protocol.js';
import type { Config } from '../config/schema.js';
import { nowText } from '../core/now-text.js';

export interface ArchiveFlags {
  archive?: boolean;
  k?: string;
  since?: string;
  source?: string;
  session?: string;
  deep?: boolean;
  kind?: string;
  status?: string;
  scope?: string;
  path?: string;
  until?: string;
  lexicalOnly?: boolean;
}

export async function archiveSearchCommand(query: string, flags: ArchiveFlags, g: GlobalOptions): Promise<void> {
  if (!flags.archive)
    throw new MemError(
      'USAGE',
      '--source and --session apply to the archive tier: add --archive (see docs/archive.md)',
    );
  const others = (['deep', 'kind', 'status', 'scope', 'path', 'until'] as const).filter((f) => flags[f] !== undefined);
  if (others.length)
    throw new MemError(
      'USAGE',
      `--archive searches raw transcripts: ${others.map((f) => `--${f}`).join(', ')} cannot apply (use --since, --source, --session)`,
    );
  // Lean like a plain search (cli/search-command.ts): no commander, zod or luxon unless a time is given.
  const out = outputFor(g);
  const workspace = locateWorkspace(g.workspace);
  const loaded = await loadConfigLean(workspace);
  for (const w of loaded.warnings) out.warn(w);
  const k = flags.k === undefined ? loaded.config.search.k : Number(flags.k);
  if (!Number.isInteger(k) || k < 1 || k > 50)
    throw new MemError('USAGE', `-k must be a whole number from 1 to 50 (got "${flags.k}")`);
  let sinceMs: number | undefined;
  const moment = nowText(g);
  const time = moment !== undefined || flags.since !== undefined ? await import('../core/time.js') : undefined;
  const now = time?.resolveNow(moment, loaded.zone); // a bad --now fails here, as in every command
  if (time && now && flags.since !== undefined) {
    try {
      sinceMs = time.parseSince(flags.since, now)?.toMillis();
    } catch {
      throw new MemError('USAGE', `--since "${flags.since}" is not a time (use 30m, 3h, 2d, 1w, an ISO date, or all)`);
    }
  }
  const ask: ArchiveAsk = {
    query,
    k,
    ...(sinceMs !== undefined ? { sinceMs } : {}),
    ...(flags.source !== undefined ? { source: flags.source } : {}),
    ...(flags.session !== undefined ? { session: flags.session } : {}),
    lexicalOnly: !!flags.lexicalOnly,
  };
  checkSource(loaded.config, ask.source);
  // The resident server first, as a memory search asks it (search-command.ts); it runs archiveAnswer too.
  const served =
    serverSwitch() === 'off'
      ? undefined
      : archiveIn(await (await import('../search/server/client.js')).askArchive(workspace, ask));
  reportArchive(out, served ?? (await archiveAnswer(workspace, loaded.config, ask)));
}

function checkSource(config: Config, source: string | undefined): void {
  if (source !== undefined && !config.sources.some((s) => s.name === source))
    throw new MemError(
      'USAGE',
      `no source named "${source}" in mem.config.json (configured: ${config.sources.map((s) => s.name).join(', ') || 'none'})`,
    );
}

/** The archive tier's answer to a checked query: in this process, or in the resident server (cli/search-server.ts). */
export async function archiveAnswer(workspace: string, config: Config, ask: ArchiveAsk): Promise<ArchiveAnswer> {
  checkSource(config, ask.source);
  const qv = await archiveQueryVector(config, ask.query, ask.lexicalOnly);
  const archive = await searchArchive(workspace, {
    query: ask.query,
    k: ask.k,
    ...(qv.vector ? { vector: qv.vector } : {}),
    ...(ask.sinceMs !== undefined ? { sinceMs: ask.sinceMs } : {}),
    ...(ask.source ? { source: ask.source } : {}),
    ...(ask.session ? { session: ask.session } : {}),
  });
  return { archive, warnings: qv.warning ? [qv.warning] : [] };
}
