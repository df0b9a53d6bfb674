/**
 * The bodies of `mem get`, `mem trace` and `mem context`, shared by commander's actions
 * (commands/get.ts, trace.ts, context.ts) and the fast path (lean-read.ts), so both print the same
 * bytes by construction. The configuration is read by loadConfigLean (zod only when its quick check
 * is unsure), so neither path pays for zod on a plainly valid configuration.
 */
import type { LoadedConfig } from '../config/load.js';
import { loadConfigLean } from '../config/lean.js';
import { MemError } from '../core/errors.js';
import { nowText } from '../core/now-text.js';
import { readInstant, type Instant } from '../core/instant.js';
import { resolveIdOrThrow } from '../entries/id-resolve.js';
import { entryJson } from '../entries/json.js';
import type { EntryRecord } from '../entries/store.js';
import { entriesWithId, readEntryTable, readIdLookup, type EntryTable } from '../entries/table-store.js';
import type { ChainSource, Trace } from '../governance/trace.js';
import type { LogHit } from '../governance/weekly-log.js';
import { appendUsage } from '../runlog/usage-log.js';
import { c, outputFor, type Output } from '../terminal/output.js';
import { locateWorkspace } from '../workspace/locate.js';
import { printContext } from './context-print.js';
import type { GlobalOptions } from './context.js';

interface ReadContext {
  workspace: string;
  loaded: LoadedConfig;
  at: Instant;
  out: Output;
}

/** As commandContext (context.ts), with the lean configuration loader. */
/** `schedule`: check the configuration's schedule as the full CLI's loadConfig does (config/lean.ts). */
export async function readContext(g: GlobalOptions, opts: { schedule?: boolean } = {}): Promise<ReadContext> {
  const out = outputFor(g);
  const workspace = locateWorkspace(g.workspace);
  const loaded = await loadConfigLean(workspace, process.env, opts);
  for (const w of loaded.warnings) out.warn(w);
  return { workspace, loaded, at: await readInstant(nowText(g), loaded.zone), out };
}

/** `typed`: the exact id, the id in another case, or a prefix only one id has (entries/id-resolve.ts). */
export async function getCommand(typed: string, g: GlobalOptions): Promise<void> {
  const { workspace, at, out } = await readContext(g);
  const { id, found } = await entriesFor(workspace, typed);
  const r = found[0]!;
  if (found.length > 1) out.warn(`${found.length} entries share id ${id}; showing the first (run "mem lint")`);
  out.json(entryJson(r));
  out.result(`${c.dim(`${r.file}:${r.block.startLine}-${r.block.endLine}`)}\n${r.block.raw.trimEnd()}`);
  const warning = await appendUsage(workspace, at.utc, 'access', 'get', [id]);
  if (warning) out.info(warning);
}

/** The entries `typed` names, whole: from the files the id index names when it is an id they hold, else from every file. */
async function entriesFor(workspace: string, typed: string): Promise<{ id: string; found: EntryRecord[] }> {
  const quick = await entriesWithId(workspace, typed);
  if (quick) return { id: typed, found: quick };
  const table = await readIdLookup(workspace);
  // Every id is read only when the typed one is not exact (entries/id-resolve.ts).
  const id = table.withId(typed).length ? typed : resolveIdOrThrow(typed, table.ids());
  const found = table.withId(id);
  return { id, found: [await table.whole(found[0]!), ...found.slice(1)] };
}

/**
 * The trace of the entry `typed` names (as `mem get` resolves it) with the weekly-log lines of every
 * entry in its chain (shared with the MCP tool). With the id index and its links (entries/links-index.ts)
 * only the chain's entries are read; else every entry of the table.
 */
export async function traceOf(workspace: string, typed: string): Promise<Trace> {
  // Loaded here, not with get and context: lint (by way of conflicts) loads luxon.
  const { recordsSource } = await import('../governance/trace.js');
  const lookup = await readIdLookup(workspace);
  const { links } = lookup;
  if (links) {
    try {
      const id = lookup.withId(typed).length ? typed : resolveIdOrThrow(typed, lookup.ids());
      return await traceWith(workspace, id, {
        record: (x) => lookup.withId(x)[0],
        newer: links.newer,
        sameKey: links.sameKey,
      });
    } catch (err) {
      if (err instanceof MemError) throw err;
      // A links bucket damaged or of other files: the whole table answers.
    }
  }
  // A chain needs only the table's fields (entries/table.ts): no daily file is parsed unless it changed.
  // Without the id index, the lookup is the whole table already.
  const { records } = 'records' in lookup ? (lookup as EntryTable) : await readEntryTable(workspace);
  const id = resolveIdOrThrow(
    typed,
    records.map((r) => r.id),
  );
  return traceWith(workspace, id, recordsSource(records));
}

async function traceWith(workspace: string, id: string, src: ChainSource): Promise<Trace> {
  const { buildTrace } = await import('../governance/trace.js');
  const { findLogLines } = await import('../governance/weekly-log.js');
  const chain = buildTrace(src, id, () => []);
  if (!chain) throw new MemError('NOT_FOUND', `no entry with id ${id}`);
  const logs = new Map<string, LogHit[]>();
  for (const s of chain.chain) logs.set(s.id, await findLogLines(workspace, s.id));
  return buildTrace(src, id, (x) => logs.get(x) ?? [])!;
}

export async function traceCommand(id: string, g: GlobalOptions): Promise<void> {
  const { workspace, out } = await readContext(g);
  const t = await traceOf(workspace, id);
  out.json(t);
  out.result((await import('../governance/trace.js')).formatTrace(t));
}

export interface ContextFlags {
  scope?: string;
  query?: string;
  /** Undefined when not given: 2000, or the prompt hook's own default. */
  budget?: string;
  hook?: string;
  format: string;
  evidence?: boolean;
}

export async function contextCommand(o: ContextFlags, g: GlobalOptions): Promise<void> {
  if (o.hook !== undefined)
    return (await import('./context-hook.js')).runContextHook({ host: o.hook, budget: o.budget, scope: o.scope }, g);
  if (o.format !== 'md' && o.format !== 'json')
    throw new MemError('USAGE', `--format "${o.format}" is not one of md, json`);
  const { workspace, loaded, at, out } = await readContext(g);
  const { buildContext, checkBudget } = await import('../context/run.js');
  const r = await buildContext({
    workspace,
    loaded,
    at,
    scope: o.scope,
    query: o.query,
    budget: checkBudget(o.budget ?? '2000'),
    cwd: process.cwd(),
    via: 'context',
    ...(o.evidence ? { evidence: true } : {}),
  });
  printContext(out, r, o.format, g);
}
