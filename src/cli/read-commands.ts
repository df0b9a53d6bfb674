/**
 * The bodies of `mem get`, `mem trace` and `mem context`, shared by commander's actions
 * (commands/get.ts, trace.ts, context.ts) and the fast path (lean-read.ts), so both print the same
 * bytes by construction. The configuration is read by loadConfigLean (zod only when its quick check
 * is unsure), so neither path pays for zod on a plainly valid configuration.
 */
import type { DateTime } from 'luxon';
import type { LoadedConfig } from '../config/load.js';
import { loadConfigLean } from '../config/lean.js';
import { MemError } from '../core/errors.js';
import { nowText } from '../core/now-text.js';
import { resolveNow } from '../core/time.js';
import { resolveIdOrThrow } from '../entries/id-resolve.js';
import { entryJson } from '../entries/json.js';
import { readEntryTable, readIdLookup } from '../entries/table-store.js';
import { buildTrace, formatTrace, type Trace } from '../governance/trace.js';
import { findLogLines, type LogHit } from '../governance/weekly-log.js';
import { appendUsage } from '../runlog/usage-log.js';
import { c, outputFor, type Output } from '../terminal/output.js';
import { locateWorkspace } from '../workspace/locate.js';
import type { GlobalOptions } from './context.js';

interface ReadContext {
  workspace: string;
  loaded: LoadedConfig;
  now: DateTime;
  out: Output;
}

/** As commandContext (context.ts), with the lean configuration loader. */
/** `schedule`: check the configuration's schedule as the full CLI's loadConfig does (config/lean.ts). */
export async function readContext(g: GlobalOptions, opts: { schedule?: boolean } = {}): Promise<ReadContext> {
  const out = outputFor(g);
  const workspace = locateWorkspace(g.workspace);
  const loaded = await loadConfigLean(workspace, process.env, opts);
  for (const w of loaded.warnings) out.warn(w);
  return { workspace, loaded, now: resolveNow(nowText(g), loaded.zone), out };
}

/** `typed`: the exact id, the id in another case, or a prefix only one id has (entries/id-resolve.ts). */
export async function getCommand(typed: string, g: GlobalOptions): Promise<void> {
  const { workspace, now, out } = await readContext(g);
  const table = await readIdLookup(workspace);
  // Every id is read only when the typed one is not exact (entries/id-resolve.ts).
  const id = table.withId(typed).length ? typed : resolveIdOrThrow(typed, table.ids());
  const found = table.withId(id);
  const r = await table.whole(found[0]!);
  if (found.length > 1) out.warn(`${found.length} entries share id ${id}; showing the first (run "mem lint")`);
  out.json(entryJson(r));
  out.result(`${c.dim(`${r.file}:${r.block.startLine}-${r.block.endLine}`)}\n${r.block.raw.trimEnd()}`);
  const warning = await appendUsage(workspace, now, 'access', 'get', [id]);
  if (warning) out.info(warning);
}

/** The trace of the entry `typed` names (as `mem get` resolves it) with the weekly-log lines of every entry in its chain (shared with the MCP tool). */
export async function traceOf(workspace: string, typed: string): Promise<Trace> {
  // A chain needs only the table's fields (entries/table.ts): no daily file is parsed unless it changed.
  const { records } = await readEntryTable(workspace);
  const id = resolveIdOrThrow(typed, records.map((r) => r.id));
  const chain = buildTrace(records, id, () => []);
  if (!chain) throw new MemError('NOT_FOUND', `no entry with id ${id}`);
  const logs = new Map<string, LogHit[]>();
  for (const s of chain.chain) logs.set(s.id, await findLogLines(workspace, s.id));
  return buildTrace(records, id, (x) => logs.get(x) ?? [])!;
}

export async function traceCommand(id: string, g: GlobalOptions): Promise<void> {
  const { workspace, out } = await readContext(g);
  const t = await traceOf(workspace, id);
  out.json(t);
  out.result(formatTrace(t));
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
  if (o.hook !== undefined) return (await import('./context-hook.js')).runContextHook({ host: o.hook, budget: o.budget, scope: o.scope }, g);
  if (o.format !== 'md' && o.format !== 'json') throw new MemError('USAGE', `--format "${o.format}" is not one of md, json`);
  const { workspace, loaded, now, out } = await readContext(g);
  const { buildContext, checkBudget } = await import('../context/run.js');
  const r = await buildContext({ workspace, loaded, now, scope: o.scope, query: o.query, budget: checkBudget(o.budget ?? '2000'), cwd: process.cwd(), via: 'context', ...(o.evidence ? { evidence: true } : {}) });
  for (const w of r.warnings) out.info(w);
  out.info(`context: ${r.items.length} items, ${r.tokens} of ${r.budget} tokens (${r.tokenizer}), scope ${r.scope}`);
  if (g.json || o.format === 'json') process.stdout.write(JSON.stringify(r, null, 2) + '\n');
  else process.stdout.write(r.text);
}
