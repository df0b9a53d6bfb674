/**
 * `mem microsync`: transcripts → settled knowledge → appended entries (DESIGN §2, §4, §5).
 * Order of effects: discover every source first (an unreadable one fails the run before any write, a
 * missing one is warned about and the others read, all of them missing fails it),
 * read and extract, plan against the workspace, append under the job lock and the write lock, and
 * save cursors last — a run killed before that point is simply re-done, and ids make it idempotent.
 */
import path from 'node:path';
import { DateTime } from 'luxon';
import { isMemError, MemError } from '../../core/errors.js';
import { quote } from '../../core/shell-quote.js';
import { dayOf, parseSince } from '../../core/time.js';
import { appendEntries } from '../../entries/daily.js';
import { readMemoryFiles, recordsOf } from '../../entries/store.js';
import { withField, type Entry } from '../../entries/model.js';
import { entryScopes, sessionScopes } from '../../scope/session-scope.js';
import { runBudget } from '../../extract/llm-budget.js';
import { sessionSkipReason, storedSessionPath } from '../../extract/trust.js';
import type { Candidate } from '../../extract/types.js';
import type { Turn } from '../../transcripts/types.js';
import { listTranscriptFiles } from '../../transcripts/index.js';
import type { SourceConfig } from '../../config/schema.js';
import { dailyFile, CURSORS_FILE } from '../../workspace/layout.js';
import { defaultLockOptions } from '../../write/defaults.js';
import { withLock, type HeldLock } from '../../write/locks.js';
import { WorkspaceWriter } from '../../write/writer.js';
import { loadCursors, serialiseCursors, type Cursors } from '../../transcripts/cursors.js';
import { loadForgotten, migrateForgotten } from '../forgotten.js';
import { extractBatch, refusedWarning, type BatchOutcome, type ExtractorSetup } from './extract-batch.js';
import { labelCandidate } from './label.js';
import type { MicrosyncOptions, MicrosyncResult } from './options.js';
import { planEntries } from './plan.js';
import { readTranscriptFile } from './read-file.js';
import { uncursoredStart } from './window.js';

/** The entry as the planner compares it: with the scope it is read as (nothing is written back). */
const withScope = (entry: Entry, scope: string | undefined) =>
  scope && !entry.fields.some((f) => f.key === 'scope') ? withField(entry, 'scope', scope) : entry;

function pickSources(all: SourceConfig[], name: string | undefined): SourceConfig[] {
  if (!name) return all;
  const found = all.filter((s) => s.name === name);
  if (!found.length) {
    throw new MemError(
      'USAGE',
      `no source named "${name}" in mem.config.json (configured: ${all.map((s) => s.name).join(', ') || 'none'})`,
    );
  }
  return found;
}

export async function runMicrosync(opts: MicrosyncOptions): Promise<MicrosyncResult> {
  const { config } = opts.loaded;
  const locks = defaultLockOptions(config);
  if (opts.dryRun) return microsync(opts);
  return withLock(opts.workspace, 'microsync', locks, (lock) => microsync(opts, lock));
}

async function microsync(opts: MicrosyncOptions, jobLock?: HeldLock): Promise<MicrosyncResult> {
  const { config, zone } = opts.loaded;
  const sources = pickSources(config.sources, opts.source);
  const explicit = opts.since !== undefined ? parseSince(opts.since, opts.now) : undefined;
  const files: Array<{ source: SourceConfig; file: string }> = [];
  const missing: MicrosyncResult['missingSources'] = [];
  for (const source of sources) {
    const listed = await listTranscriptFiles(source.kind, source.path, opts.workspace).catch((err: unknown) => {
      if (!isMemError(err) || err.code !== 'SOURCE_MISSING') throw err;
      missing.push({ source: source.name, path: source.path });
      opts.warn(`source "${source.name}": ${err.message}; skipped, the other sources are read`);
      return [];
    });
    for (const file of listed) files.push({ source, file });
  }
  if (missing.length && missing.length === sources.length) {
    throw new MemError(
      'SOURCE_MISSING',
      `no source could be read: ${missing.map((m) => `"${m.source}" (${m.path})`).join(', ')} not found; check "sources" in mem.config.json`,
    );
  }
  const { cursors, warning } = loadCursors(opts.workspace);
  if (warning) opts.warn(warning);
  const nextCursors: Cursors = { ...cursors };
  const llmCfg = opts.useLlm ? config.llm : undefined;
  const setup: ExtractorSetup = {
    warn: opts.warn,
    ...(llmCfg ? { llm: { cfg: llmCfg, budget: opts.budget ?? runBudget(llmCfg), dryRun: opts.dryRun } } : {}),
  };
  const result: MicrosyncResult = {
    sources: sources.length,
    files: files.length,
    sessions: 0,
    turns: 0,
    bytesRead: 0,
    malformed: 0,
    redacted: 0,
    candidates: 0,
    plan: { entries: [], skipped: [], forgotten: 0 },
    added: [],
    skippedSessions: [],
    dryRun: opts.dryRun,
    outside: { turns: 0, files: 0 },
    window: { start: null, firstRun: false },
    backfill: null,
    missingSources: missing,
    bySource: sources.map((s) => ({
      source: s.name,
      files: files.filter((f) => f.source === s).length,
      sessions: 0,
      turns: 0,
      outsideTurns: 0,
      outsideFiles: 0,
    })),
    llm: llmCfg ? { calls: 0, tokens: 0, estimatedCalls: 0, estimatedTokens: 0, stoppedByBudget: false } : null,
  };
  const candidates: Candidate[] = [];
  const refused: BatchOutcome['refused'] = [];
  const uncursored = uncursoredStart(cursors, opts.now);
  const start = explicit !== undefined ? explicit : opts.floor ? DateTime.min(uncursored, opts.floor) : uncursored;
  result.window = {
    start: start ? start.toUTC().toISO() : null,
    firstRun: explicit === undefined && !Object.keys(cursors).length,
  };
  let done = 0;
  for (const { source, file } of files) {
    opts.progress?.(`microsync: ${++done}/${files.length} ${path.basename(file)}`);
    const prev = cursors[file];
    if (prev?.skip && explicit === undefined) continue;
    const patterns = [...config.exclude, ...(source.exclude ?? [])];
    const judge = (opener: Turn[]) =>
      opener[0] ? sessionSkipReason(file, opener[0].sessionId, opener, patterns) : undefined;
    const win = { start, now: opts.now, fromStart: explicit !== undefined, maxLineBytes: config.limits.maxLineBytes };
    const read = await readTranscriptFile(file, source.kind, prev, win, judge, async ({ turns, context }) => {
      const out = await extractBatch(turns, context, setup);
      candidates.push(...out.candidates);
      result.redacted += out.redacted;
      refused.push(...out.refused);
      if (result.llm) {
        for (const k of ['calls', 'tokens', 'estimatedCalls', 'estimatedTokens'] as const) result.llm[k] += out.llm[k];
        result.llm.stoppedByBudget ||= out.llm.stoppedByBudget;
      }
      return { processedThrough: out.processedThrough };
    });
    const counts = result.bySource[sources.indexOf(source)]!;
    if (read.state === 'skipped-old') counts.outsideFiles++;
    if (read.state !== 'read') continue;
    if (read.rewritten) opts.warn(`${storedSessionPath(file)}: ${read.rewritten}; read again from the start`);
    for (const w of read.warnings) opts.warn(w);
    counts.turns += read.turnsRead;
    counts.outsideTurns += read.turnsBefore;
    result.bytesRead += read.bytesRead;
    result.malformed += read.malformed;
    if (read.turnsRead) counts.sessions++;
    if (read.skip) result.skippedSessions.push({ path: storedSessionPath(file), reason: read.skip });
    // A `--since` re-read stopped early (the LLM budget) never moves a cursor back over turns an
    // earlier run processed: the next run would send them to the LLM again.
    const behind = prev && !read.rewritten && !read.skip && read.cursor && read.cursor.offset < prev.offset;
    if (read.cursor && !behind) nextCursors[file] = { ...read.cursor, ...(read.skip ? { skip: read.skip } : {}) };
  }
  for (const n of result.bySource) {
    result.sessions += n.sessions;
    result.turns += n.turns;
    result.outside.turns += n.outsideTurns;
    result.outside.files += n.outsideFiles;
  }
  if (result.outside.turns || result.outside.files)
    result.backfill = `mem microsync --since all${opts.source ? ` --source ${quote(opts.source)}` : ''}`;
  result.candidates = candidates.length;
  const refusal = refusedWarning(refused);
  if (refusal) opts.warn(refusal);

  // Entries from before scopes are compared as their session's scope (session-scope.ts), never as global.
  const scopeOf = entryScopes(config.scopes);
  // The last entry of a file that ends mid-line may be the torn rest of a killed append (planAppend repairs it).
  const existing = (await readMemoryFiles(opts.workspace)).flatMap((f) =>
    recordsOf(f.file, f.text).map((r, i, all) => ({
      id: r.id,
      entry: withScope(r.entry, scopeOf(r.entry)),
      ...(i === all.length - 1 && !f.text.endsWith('\n') ? { tail: r.block.raw } : {}),
    })),
  );
  const ofSession = sessionScopes(config.scopes);
  const dated = candidates.map((c) =>
    labelCandidate(
      { ...c, day: dayOf(c.timestamp, zone), sessionPathStored: storedSessionPath(c.sessionPath) },
      ofSession(c),
    ),
  );
  result.plan = planEntries({ candidates: dated, existing, forgotten: loadForgotten(opts.workspace) });
  if (opts.dryRun) return result;

  const writer = new WorkspaceWriter(opts.workspace, 'microsync', defaultLockOptions(config), jobLock);
  // Marks an older version kept per machine in .mem/ go into the committed record (jobs/forgotten.ts).
  await migrateForgotten(writer);
  const days = [...new Set(result.plan.entries.map((e) => e.day))].sort();
  for (const day of days) {
    const entries = result.plan.entries.filter((e) => e.day === day).map((e) => e.entry);
    let added: string[] = [];
    await writer.append(dailyFile(day), (cur) => {
      const r = appendEntries(cur, day, entries);
      added = r.added;
      return r.added.length ? r.text : undefined;
    });
    result.added.push(...added.map((id) => ({ id, file: dailyFile(day) })));
  }
  await writer.write(CURSORS_FILE, serialiseCursors(nextCursors));
  return result;
}
