/**
 * Packs kept ready (issue 28): for every scope the heads hold, and for a folder of no known scope,
 * the entries a session-start pack without a query takes (select.ts, on the heads), whole, and the
 * token count of every piece of text a pack of them is made of (pieces.ts), in
 * `.mem/entries/packs/` (their format: pack-cache-files.ts). So `mem context` neither parses daily files nor loads the tokenizer.
 * Built by the index refresh right after the heads (search/update.ts), from the heads it just
 * checked, once a pack has been read in the workspace (the use log says so). Each pack is stamped
 * with its key (pack-cache-files.ts keyOf: everything it depends on), and only the packs whose key
 * changed are made again: a one-file edit refits the packs of the scopes it touched, not all.
 *
 * Invariant: a read uses a scope's file only when the packs' meta names the heads' digest of memory/
 * as it is now and MEMORY.md's text as read now, and the file carries the key the meta names for
 * it, so it gives the very entries the heads would; a piece a pack has that was not counted ahead
 * (another budget, a secret redacted across two items) is counted by the tokenizer. Never required:
 * anything missing, damaged or stale sends the read to the heads. Written only by a refresh, never
 * by a read (DESIGN invariant 4).
 */
import fs from 'node:fs';
import path from 'node:path';
import { headsFor } from '../entries/heads.js';
import { headRows, type CurrentHeads } from '../entries/heads-store.js';
import { pinnedText, readCurrentMemory } from '../entries/memory-md.js';
import { scopeKey } from '../entries/scope-key.js';
import type { EntryRecord } from '../entries/store.js';
import { USAGE_FILE } from '../runlog/usage-log.js';
import { redactSecrets } from '../secrets/secrets.js';
import { writeDerivedFile } from '../write/atomic.js';
import { DEFAULT_BUDGET, fitPack, type Pack } from './fit.js';
import { pieceCounter, pieces } from './pieces.js';
import { ItemPieces } from './item-pieces.js';
import { kept, KeptRecords, recordOf } from './kept.js';
import { DEPS, depsOf, readDeps, stillWhole, tableStamps, unchanged, type Deps } from './pack-deps.js';
import {
  DIR,
  ELSEWHERE,
  FIXED,
  LAYOUT,
  keyOf,
  memoryStamp,
  META,
  readCounts,
  readPackMeta,
  readScopeFile,
  scopeFile,
  type Fitted,
  type PackMeta,
  type ScopeFile,
} from './pack-cache-files.js';
import { renderPack, sectionHeading, type PackItem } from './render.js';
import { selectLayers, type Layers } from './select.js';
import { countTokens } from './tokens.js';

export interface ReadyPack {
  /** The layers as select.ts gives them, entries whole; no query layer. */
  layers: Layers;
  /** Counts of pieces a pack of them has: what pieceCounter starts from. */
  counts: Map<string, number>;
  /**
   * The pack fit.ts makes of them at DEFAULT_BUDGET (redacted, counted), for a session whose scope is
   * `fittedFor` (any scope when undefined: no project layer names one).
   */
  fitted: Pack;
  /** The fitted items' titles, redacted. */
  titles: string[];
  fittedFor: string | undefined;
}

/** The ready pack of `scope` when it was built from `heads` (current: heads-store.ts currentHeads) and MEMORY.md as it is now; else undefined. */
export function readReadyPack(
  workspace: string,
  tableDir: string,
  heads: CurrentHeads,
  scope: string | undefined,
  memoryText: string | undefined,
): ReadyPack | undefined {
  const key = scope?.trim() && heads.scopes.includes(scopeKey(scope)) ? scopeKey(scope) : ELSEWHERE;
  const dir = path.join(workspace, tableDir, DIR);
  const meta = readPackMeta(dir);
  if (!meta || meta.heads !== heads.digest || meta.memory !== memoryStamp(memoryText)) return undefined;
  const got = readScopeFile(path.join(dir, scopeFile(key)));
  if (!got || !Object.hasOwn(meta.keys, key) || got.stamp !== meta.keys[key]) return undefined;
  const layers = { core: got.core.map(recordOf), scope: got.scope.map(recordOf), query: [] };
  const f = got.fitted;
  const fitted: Pack = {
    text: f.text,
    tokens: f.tokens,
    overBudget: f.overBudget,
    items: f.items.map(([layer, at, form]) => ({
      record: (layer === 0 ? layers.core : layers.scope)[at]!,
      layer,
      form,
    })),
    omitted: f.omitted.map((id) => ({ id, layer: 1, reason: 'budget' })),
  };
  return { layers, counts: new Map(got.counts), fitted, titles: f.titles, fittedFor: key || undefined };
}

/**
 * Builds the ready packs from `heads` (what the refresh just made) whose key changed since the last
 * build. Counts already made are reused, so a refresh tokenizes only new text.
 */
export async function refreshReadyPacks(
  workspace: string,
  tableDir: string,
  heads: CurrentHeads | undefined,
): Promise<void> {
  const dir = path.join(workspace, tableDir, DIR);
  const memoryText = await fs.promises.readFile(path.join(workspace, 'MEMORY.md'), 'utf8').catch(() => undefined);
  const meta = readPackMeta(dir);
  if (heads && meta?.heads === heads.digest && meta.memory === memoryStamp(memoryText)) return;
  if (!fs.existsSync(dir) && !packWasRead(workspace)) return;
  if (!heads) return fs.rmSync(dir, { recursive: true, force: true });
  const keys = Object.fromEntries([...heads.scopes, ELSEWHERE].map((s) => [s, keyOf(heads, s, memoryText)]));
  const present = new Set(fs.existsSync(dir) ? fs.readdirSync(dir) : []);
  // Read only when a pack is checked or made (items.json and records.json are the packs' largest files).
  let keptRecords: KeptRecords | undefined;
  const records = () => (keptRecords ??= KeptRecords.read(workspace, dir));
  const [deps, stamps] = [readDeps(dir), tableStamps(workspace)];
  const todo: string[] = [];
  for (const s of Object.keys(keys)) {
    const same = meta?.keys[s] === keys[s] && present.has(scopeFile(s));
    if (same && unchanged(deps[s], stamps)) continue;
    const file = same ? readScopeFile(path.join(dir, scopeFile(s))) : undefined;
    if (file && (await stillWhole(file, deps[s], stamps, records()))) deps[s] = depsOf(file, stamps);
    else todo.push(s);
  }
  // Every pack made again: nothing of the last build's counts and records is kept beyond what they use.
  const all = todo.length === Object.keys(keys).length;
  // The packs' own lines (headings, the preamble, pinned text) as counted last time: no tokenizer for them again.
  const before = new Map(readCounts(path.join(dir, FIXED)));
  fs.rmSync(path.join(dir, META), { force: true });
  const memory = readCurrentMemory(memoryText);
  const pinned = pinnedText(memoryText);
  const fixed = new Map<string, number>(all ? [] : before);
  const count = pieceCounter(before, countTokens, true);
  if (!todo.length)
    return finishPacks(dir, { layout: LAYOUT, heads: heads.digest, memory: memoryStamp(memoryText), keys }, deps);
  const itemPieces = ItemPieces.read(dir, countTokens);
  const whole = (list: EntryRecord[]) => Promise.all(list.map((r) => records().whole(r)));
  const global = headRows(workspace, tableDir, heads, undefined);
  const files: Array<[string, ScopeFile]> = [];
  for (const scope of todo) {
    const own = scope && scope !== 'global' ? headRows(workspace, tableDir, heads, scope, false) : [];
    const chosen = global && own && headsFor([...global, ...own], heads.cited, memory.citedIds);
    if (!chosen) return fs.rmSync(dir, { recursive: true, force: true });
    const picked = selectLayers(chosen.records, { scope: scope || undefined, promoted: chosen.promoted, hitIds: [] });
    const layers: Layers = { core: await whole(picked.core), scope: await whole(picked.scope), query: [] };
    const counts = countsOf(layers, scope, pinned, count, itemPieces, fixed);
    files.push([
      scope,
      {
        stamp: keys[scope]!,
        core: layers.core.map(kept),
        scope: layers.scope.map(kept),
        counts,
        fitted: fittedOf(layers, scope, pinned, new Map(counts)),
      },
    ]);
  }
  fs.mkdirSync(dir, { recursive: true });
  for (const [scope, file] of files) {
    writeDerivedFile(path.join(dir, scopeFile(scope)), JSON.stringify(file));
    deps[scope] = depsOf(file, stamps);
  }
  const wanted = new Set(Object.keys(keys).map(scopeFile));
  for (const name of present)
    if (name.startsWith('s-') && !wanted.has(name)) fs.rmSync(path.join(dir, name), { force: true });
  itemPieces.write(dir, !all);
  records().write(dir, !all);
  writeDerivedFile(path.join(dir, FIXED), JSON.stringify([...fixed]));
  finishPacks(dir, { layout: LAYOUT, heads: heads.digest, memory: memoryStamp(memoryText), keys }, deps);
}

/** The packs' deps, then their meta, last. */
function finishPacks(dir: string, meta: PackMeta, deps: Deps): void {
  const of = Object.fromEntries(Object.keys(meta.keys).map((s) => [s, deps[s]]));
  writeDerivedFile(path.join(dir, DEPS), JSON.stringify(of));
  writeDerivedFile(path.join(dir, META), JSON.stringify(meta));
}

/**
 * Whether a session start of this workspace has read a pack (the use log names one): packs are kept
 * ready from then on, so a workspace whose agents never ask for one (a script's, a test's) pays
 * neither the tokenizer nor the files at every refresh.
 */
function packWasRead(workspace: string): boolean {
  try {
    return /"via":"(?:context|mcp:memory_context|hook:[^"]*)"/.test(
      fs.readFileSync(path.join(workspace, USAGE_FILE), 'utf8'),
    );
  } catch {
    return false;
  }
}

/** The default-budget pack of these layers, as buildContext would fit it for a session of `scope`. */
function fittedOf(layers: Layers, scope: string, pinned: string, counts: Map<string, number>): Fitted {
  const pack = fitPack(
    layers,
    DEFAULT_BUDGET,
    { ...(scope ? { scope } : {}), ...(pinned ? { pinned } : {}) },
    pieceCounter(counts, countTokens),
  );
  const at = (i: PackItem): [0 | 1, number, 'full' | 'summary'] => {
    const layer = i.layer === 0 ? 0 : 1;
    return [layer, (layer === 0 ? layers.core : layers.scope).indexOf(i.record), i.form];
  };
  return {
    text: pack.text,
    tokens: pack.tokens,
    overBudget: pack.overBudget,
    items: pack.items.map(at),
    titles: pack.items.map((i) => redactSecrets(i.record.entry.title).text),
    omitted: pack.omitted.map((o) => o.id),
  };
}

/**
 * The pieces a pack of these layers is made of: its fixed lines and headings (from a pack of one
 * entry in each form per layer), and each entry in either form ended by one or two line breaks, as it
 * stands inside a pack and as fit.ts estimates it. `itemPieces` keeps an entry's pieces across scopes.
 */
function countsOf(
  layers: Layers,
  scope: string,
  pinned: string,
  count: (text: string) => number,
  itemPieces: ItemPieces,
  fixed: Map<string, number>,
): Array<[string, number]> {
  const texts: string[] = [];
  const headings = { ...(scope ? { scope } : {}), ...(pinned ? { pinned } : {}) };
  // Each layer's first entry in both forms, in both orders: what lies around the pinned text and the headings.
  const sample =
    (forms: Array<'full' | 'summary'>) =>
    (list: EntryRecord[], layer: 0 | 1): PackItem[] =>
      list[0] ? forms.map((form) => ({ record: list[0]!, layer, form })) : [];
  for (const at of [sample(['summary', 'full']), sample(['full', 'summary'])])
    texts.push(renderPack([...at(layers.core, 0), ...at(layers.scope, 1)], headings));
  // Nothing yet, with and without what an empty pack says (what fit.ts's estimate starts from).
  texts.push(renderPack([], headings), renderPack([], headings, false));
  for (const layer of [0, 1] as const) texts.push(`\n${sectionHeading(layer, headings)}\n`);
  const out = new Map<string, number>();
  for (const p of texts.flatMap(pieces)) fixed.set(p, out.set(p, count(p)).get(p)!);
  for (const record of [...layers.core, ...layers.scope]) for (const [p, n] of itemPieces.of(record)) out.set(p, n);
  return [...out];
}
