/**
 * The MCP tools (issue 6): each validates its arguments with zod (tool-schemas.ts) and returns the
 * same JSON as the matching CLI command's `--json`. Reads go through the read path and append only
 * to the use log; memory_remember writes through `runRemember` (the `remember` allowance and write
 * lock), origin agent.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { DateTime } from 'luxon';
import type { LoadedConfig } from '../../config/load.js';
import { MemError } from '../../core/errors.js';
import { instantOf } from '../../core/instant.js';
import { parseSince, toIsoUtc } from '../../core/time.js';
import { buildContext } from '../../context/run.js';
import { traceOf } from '../read-commands.js';
import { runRemember } from '../../jobs/remember.js';
import { appendUsage } from '../../runlog/usage-log.js';
import { getById, getByPath } from './get.js';
import { redactKept } from './redact.js';
import { fitToChars } from '../../search/query/fit-chars.js';
import { listMemory } from './list.js';
import { withCalls } from './search-calls.js';
import type { SCHEMAS, ToolName } from './tool-schemas.js';

export interface ToolEnv {
  workspace: string;
  loaded: LoadedConfig;
  now: () => DateTime;
  cwd: string;
}

function day(v: string | undefined, now: DateTime, zone: string, what: string): string | undefined {
  if (v === undefined) return undefined;
  try {
    return parseSince(v, now)?.setZone(zone).toISODate() ?? undefined;
  } catch {
    throw new MemError('USAGE', `filters.${what} "${v}" is not a time (use 30m, 3h, 2d, 1w, an ISO date, or all)`);
  }
}

type Handler = (env: ToolEnv, args: never) => Promise<unknown>;

export const HANDLERS: Record<ToolName, Handler> = {
  memory_search: async (env, a: z.infer<typeof SCHEMAS.memory_search>) => {
    const now = env.now();
    const f = a.filters ?? {};
    const { queryTerms, runSearch, snippet, wholeTextReader } = await import('../../search/index.js');
    const k = a.k ?? env.loaded.config.search.k;
    const emb = env.loaded.config.embedding;
    // Ranked as `mem search --json` ranks: with the vector ranker when embeddings are configured.
    const vectors = emb
      ? (await import('../../search/embed/embed-query.js')).vectorRanker(env.workspace, emb)
      : undefined;
    const wholeText = wholeTextReader(env.workspace);
    const found = await runSearch({
      workspace: env.workspace,
      query: a.query,
      k: f.status ? k : Math.min(50, k * 2),
      deep: !!a.deep,
      today: now.toISODate() ?? '',
      filters: {
        ...f,
        since: day(f.since, now, env.loaded.zone, 'since'),
        until: day(f.until, now, env.loaded.zone, 'until'),
      },
      extraPaths: env.loaded.config.extraPaths,
      search: env.loaded.config.search,
      vectors,
      wholeText,
    });
    const { response } = found;
    // Retracted entries are kept for audit, not for answers (DESIGN §8), unless asked for by status.
    if (!f.status) response.results = response.results.filter((r) => r.status !== 'retracted').slice(0, k);
    // A snippet is a window of at most 240 characters of a line, and a key cut there may no longer
    // look like one: a result holding a secret takes its snippet from its redacted text — the whole
    // text where the stored one was cut, as search read it (server.ts redacts the rest).
    const terms = queryTerms(a.query);
    for (const r of response.results) {
      const red = redactKept(r.text);
      const whole = wholeText(r);
      const redWhole = whole === null ? red : redactKept(whole);
      if (redWhole.count) Object.assign(r, { snippet: snippet(redWhole.text, terms) });
      if (red.count) r.text = red.text;
    }
    // Within maxChars as `mem search --max-chars` is, on the text as shown (redacted).
    const { response: shown, notices } = a.maxChars === undefined ? found : fitToChars(found, a.maxChars, 'maxChars');
    await appendUsage(
      env.workspace,
      toIsoUtc(now),
      'traverse',
      'mcp:memory_search',
      shown.results.map((r) => r.id ?? ''),
    );
    const answer = { ...shown, results: shown.results.map(withCalls) };
    return notices.length ? { ...answer, warnings: notices } : answer;
  },
  memory_get: async (env, a: z.infer<typeof SCHEMAS.memory_get>) => {
    if (a.path !== undefined) return getByPath(env.workspace, a.path, a.lines);
    const r = await getById(env.workspace, a.id!);
    await appendUsage(env.workspace, toIsoUtc(env.now()), 'access', 'mcp:memory_get', [r.id]);
    return r;
  },
  memory_list: async (env, a: z.infer<typeof SCHEMAS.memory_list>) => listMemory(env.workspace, env.loaded.zone, a),
  memory_context: async (env, a: z.infer<typeof SCHEMAS.memory_context>) =>
    buildContext({
      workspace: env.workspace,
      loaded: env.loaded,
      at: instantOf(env.now()),
      scope: a.scope,
      query: a.query,
      budget: a.budget,
      cwd: env.cwd,
      via: 'mcp:memory_context',
    }),
  memory_remember: async (env, a: z.infer<typeof SCHEMAS.memory_remember>) => {
    const sessionId = `mcp-${createHash('sha256').update(a.text.trim()).digest('hex').slice(0, 12)}`;
    const r = await runRemember({
      workspace: env.workspace,
      loaded: env.loaded,
      now: env.now(),
      ...a,
      cwd: env.cwd,
      origin: 'agent',
      source: { sessionId, sessionPath: 'mcp:memory_remember' },
      labelName: (label) => label,
    });
    if (!r.added) return r;
    // As `mem remember` does: the index takes the entry now, never failing the write.
    const { warning } = await (await import('../../search/index.js')).updateIndexAfterWrite(env.workspace, env.loaded);
    return warning ? { ...r, warnings: [warning] } : r;
  },
  memory_trace: async (env, a: z.infer<typeof SCHEMAS.memory_trace>) => traceOf(env.workspace, a.id),
  memory_evidence: async (env, a: z.infer<typeof SCHEMAS.memory_evidence>) => {
    if (a.query !== undefined) {
      const { searchArchive } = await import('../../archive/search.js');
      const { archiveQueryVector } = await import('../../archive/query-vector.js');
      const qv = await archiveQueryVector(env.loaded.config, a.query);
      const r = await searchArchive(env.workspace, {
        query: a.query,
        k: a.k ?? env.loaded.config.search.k,
        ...(qv.vector ? { vector: qv.vector } : {}),
        ...(a.source ? { source: a.source } : {}),
        ...(a.session ? { session: a.session } : {}),
      });
      return qv.warning ? { ...r, warnings: [qv.warning] } : r;
    }
    const { findSource } = await import('../../archive/source.js');
    return findSource(env.workspace, env.loaded, a.id!, a.context ?? 0);
  },
};
