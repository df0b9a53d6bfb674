/**
 * `mem context` as a function, shared by the CLI and the MCP tool: loads the entries, asks search for
 * the query layer, selects, fits the budget, and records the inclusions in the use log (the only
 * write a context read makes, DESIGN §2).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { LoadedConfig } from '../config/load.js';
import { MemError } from '../core/errors.js';
import type { Instant } from '../core/instant.js';
import { VERSION } from '../core/version.js';
import { headsFor } from '../entries/heads.js';
import { passedSecretGate } from '../entries/scope.js';
import { currentHeads, headRows, withScopes, type CurrentHeads } from '../entries/heads-store.js';
import type { EntryRecord } from '../entries/store.js';
import { pinnedText, readCurrentMemory } from '../entries/memory-md.js';
import { scopeOfFolder } from '../scope/scope-of.js';
import { entryScopes, mappingKey } from '../scope/session-scope.js';
import { readEntryTable, TABLE_DIR, wholeRecords } from '../entries/table-store.js';
import { redactSecrets } from '../secrets/secrets.js';
import { appendUsage } from '../runlog/usage-log.js';
import { DEFAULT_BUDGET, fitPack } from '../pack/fit.js';
import { readReadyPack } from '../pack/pack-cache.js';
import { pieceCounter } from '../pack/pieces.js';
import { LIMITS, selectLayers, type Layers } from '../pack/select.js';
import { countTokens, TOKENIZER } from '../pack/tokens.js';

export interface ContextRequest {
  workspace: string;
  loaded: LoadedConfig;
  /** The moment the read is dated and logged at. */
  at: Instant;
  scope?: string;
  query?: string;
  budget?: number;
  /** Folder the agent runs in: its name gives the default scope `project:<name>`. */
  cwd: string;
  /** What to name in the use log (`context`, `mcp:memory_context`). */
  via: string;
  /** Add transcript excerpts to low-confidence layer-2 items (see context/evidence.ts). */
  evidence?: boolean;
  /** Layer 2 alone: a prompt hook's hits, the core and project layers being in the session already. */
  queryOnly?: boolean;
  /**
   * memory/'s files digest (heads-files.ts filesDigestOf) when the caller knows the files' stats already
   * (the resident server's tracker): the heads are checked against it instead of stating every file.
   */
  filesDigest?: string;
}

export interface ContextItem {
  layer: 0 | 1 | 2;
  form: 'full' | 'summary';
  id: string;
  kind: string;
  title: string;
  path: string;
  startLine: number;
  endLine: number;
  evidence?: string[];
}

export interface ContextResult {
  budget: number;
  tokens: number;
  tokenizer: string;
  overBudget: boolean;
  scope: string;
  scopeFrom: 'option' | 'cwd';
  query: string | null;
  limits: typeof LIMITS;
  items: ContextItem[];
  omitted: Array<{ id: string; layer: 1 | 2; reason: 'budget' }>;
  text: string;
  warnings: string[];
}

export function checkBudget(value: unknown): number {
  const n = typeof value === 'string' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 50 || n > 200_000) {
    throw new MemError('USAGE', `--budget must be a whole number of tokens from 50 to 200000 (got "${String(value)}")`);
  }
  return n;
}

/**
 * The entries of each layer, chosen from the entry table's fields (entries/table.ts): from its
 * in-force heads when they describe memory/ as it is and no query asks for hits beyond them
 * (entries/heads-store.ts), else from every entry. Only the chosen entries' files are parsed, for their text.
 */
async function choose(
  req: ContextRequest,
  scope: string,
  citedIds: string[],
  hitIds: string[],
  heads: CurrentHeads | undefined,
): Promise<Layers> {
  const mapping = req.loaded.config.scopes;
  const rows = heads && headRows(req.workspace, TABLE_DIR, heads, scope);
  const fromHeads = rows && headsFor(rows, heads!.cited, citedIds);
  if (fromHeads) return selectLayers(fromHeads.records, { scope, promoted: fromHeads.promoted, hitIds });
  // An entry from before scopes is in its session's scope (session-scope.ts), never in every scope.
  const table = await readEntryTable(req.workspace);
  return selectLayers(withScopes(table.records, entryScopes(mapping)), { scope, promoted: citedIds, hitIds });
}

/** MEMORY.md's text, or undefined when there is none. Read synchronously: a first fs.promises call starts libuv's thread pool (2-15 ms). */
function readMemoryText(workspace: string): string | undefined {
  try {
    return fs.readFileSync(path.join(workspace, 'MEMORY.md'), 'utf8');
  } catch {
    return undefined;
  }
}

export async function buildContext(req: ContextRequest): Promise<ContextResult> {
  const budget = checkBudget(req.budget ?? DEFAULT_BUDGET);
  const query = req.query?.trim() || null;
  // Without a query: the heads when they describe memory/ as it is (one listing of it), and the pack
  // the last refresh kept ready from them (pack/pack-cache.ts).
  const heads = query
    ? undefined
    : currentHeads(req.workspace, TABLE_DIR, mappingKey(req.loaded.config.scopes), req.filesDigest);
  if (heads?.gateVersion === VERSION) passedSecretGate(heads.passed);
  const scope = req.scope?.trim() || scopeOfFolder(req.cwd, req.loaded.config.scopes).scope;
  const warnings: string[] = [];
  let hitIds: string[] = [];
  if (query) {
    const { runSearch } = await import('../search/index.js');
    const { response, notices } = await runSearch({
      workspace: req.workspace,
      query,
      k: 20,
      deep: false,
      filters: {},
      today: req.at.day,
      extraPaths: req.loaded.config.extraPaths,
      search: req.loaded.config.search,
    });
    warnings.push(...notices);
    hitIds = response.results.map((r) => r.id).filter((x): x is string => !!x);
  }
  const memoryText = readMemoryText(req.workspace);
  const memory = readCurrentMemory(memoryText);
  const ready = heads && readReadyPack(req.workspace, TABLE_DIR, heads, scope, memoryText);
  const chosen = ready?.layers ?? (await choose(req, scope, memory.citedIds, hitIds, heads));
  const toWhole = ready ? async (r: EntryRecord) => r : wholeRecords(req.workspace);
  const whole = (list: EntryRecord[]) => Promise.all(list.map(toWhole));
  const layers = req.queryOnly
    ? { core: [], scope: [], query: await whole(chosen.query) }
    : { core: await whole(chosen.core), scope: await whole(chosen.scope), query: await whole(chosen.query) };
  const pinned = req.queryOnly ? '' : pinnedText(memoryText);
  const evidence = req.evidence
    ? await (await import('./evidence.js')).evidenceFor(layers.query, req.workspace, req.loaded, warnings)
    : undefined;
  const count = ready ? pieceCounter(ready.counts, countTokens) : countTokens;
  // At the default budget the ready pack is already fitted (redacted and counted at the refresh).
  const fitted =
    ready &&
    budget === DEFAULT_BUDGET &&
    !evidence &&
    !req.queryOnly &&
    (ready.fittedFor === undefined || ready.fittedFor === scope)
      ? ready.fitted
      : undefined;
  const pack =
    fitted ??
    fitPack(layers, budget, { scope, ...(query ? { query } : {}), ...(pinned ? { pinned } : {}) }, count, evidence);
  // The titles go to the agent with the pack, through the same secret gate as its text (render.ts).
  // The ready pack's were redacted when it was made.
  const titles = pack === fitted ? ready!.titles : pack.items.map((i) => redactSecrets(i.record.entry.title).text);
  const items: ContextItem[] = pack.items.map((i, n) => ({
    layer: i.layer,
    form: i.form,
    id: i.record.id,
    kind: i.record.entry.kind,
    title: titles[n]!,
    path: i.record.file,
    startLine: i.record.block.startLine,
    endLine: i.record.block.endLine,
    ...(i.evidence ? { evidence: i.evidence } : {}),
  }));
  if (pack.overBudget)
    warnings.push(
      `the core rules alone take ${pack.tokens} tokens, over the budget of ${budget}; they are included whole`,
    );
  const logged = await appendUsage(
    req.workspace,
    req.at.utc,
    'traverse',
    req.via,
    items.map((i) => i.id),
  );
  if (logged) warnings.push(logged);
  return {
    budget,
    tokens: pack.tokens,
    tokenizer: TOKENIZER,
    overBudget: pack.overBudget,
    scope,
    scopeFrom: req.scope?.trim() ? 'option' : 'cwd',
    // The query is the agent's prompt more often than not: echoed redacted, as the pack is.
    query: query && redactSecrets(query).text,
    limits: LIMITS,
    items,
    omitted: pack.omitted,
    text: pack.text,
    warnings,
  };
}
