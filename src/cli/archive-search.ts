/**
 * The CLI side of `mem search --archive`: flags in, hits out. Kept apart from the search command so
 * a default search never loads the archive code; the archive loads only the search engine's lexical
 * ranking (and its vector scoring with archive.embed), not the Markdown tiers' scan or chunker.
 */
import type { GlobalOptions } from './context.js';
import { locateWorkspace } from '../workspace/locate.js';
import { c, outputFor } from '../terminal/output.js';
import { loadConfigLean } from '../config/lean.js';
import { MemError } from '../core/errors.js';
import { archiveQueryVector } from '../archive/query-vector.js';
import { searchArchive, type ArchiveResponse } from '../archive/search.js';
import { nowText } from '../core/now-text.js';
import { count } from '../core/count.js';

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
  if (flags.source !== undefined && !loaded.config.sources.some((s) => s.name === flags.source)) {
    throw new MemError(
      'USAGE',
      `no source named "${flags.source}" in mem.config.json (configured: ${loaded.config.sources.map((s) => s.name).join(', ') || 'none'})`,
    );
  }
  const qv = await archiveQueryVector(loaded.config, query, !!flags.lexicalOnly);
  if (qv.warning) out.warn(qv.warning);
  const r = await searchArchive(workspace, {
    query,
    k,
    ...(qv.vector ? { vector: qv.vector } : {}),
    ...(sinceMs !== undefined ? { sinceMs } : {}),
    ...(flags.source ? { source: flags.source } : {}),
    ...(flags.session ? { session: flags.session } : {}),
  });
  if (r.outdated)
    out.warn('the archive index was written by an older memfold: run "mem archive" to rebuild it (nothing searched)');
  if (!r.indexed) out.warn('there is no archive index yet: run "mem archive" to index the raw transcripts');
  for (const d of r.damaged)
    out.warn(`archive segment damaged (${d}): its windows were left out; run "mem archive" to rebuild it`);
  if (r.behind)
    out.warn(
      `${count(r.behind, 'transcript')} changed since the last "mem archive": their new lines are not searched yet`,
    );
  out.json(r);
  out.result(formatArchive(r));
}

export function formatArchive(r: ArchiveResponse): string {
  if (!r.results.length) return c.dim(`no archive hits for "${r.query}" (${r.docs} windows searched)`);
  return r.results
    .map(
      (h, i) =>
        `${c.bold(`${i + 1}. ${h.sessionPath}`)} ${c.dim(`turns ${h.turns} · ${h.timestamp ?? 'no time'} · ${h.source} · session ${h.sessionId} · score ${h.score}`)}\n   ${h.snippet}`,
    )
    .join('\n');
}
